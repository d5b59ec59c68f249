/**
 * The API of a GitHub Enterprise Server, from Probot's GHE_HOST and GHE_PROTOCOL (the server's and the
 * Lambda functions' alike). Probot joins them as `<protocol>://<host>/api/v3` without a look: a host
 * written as a URL (`https://ghe.example.com`, as the browser shows it) started an App whose every request
 * failed ("getaddrinfo ENOTFOUND https"). Such values are refused at start, naming the variable.
 */

/**
 * `host` or `host:port`: dot-separated names or an IPv4 address (underscores too, which some internal
 * names have and resolvers take), or a bracketed IPv6 address.
 */
const HOST = /^(?:[\w-]+(?:\.[\w-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The API's base URL (undefined: github.com's), or an Error saying which variable is wrong and how. */
export function enterpriseApiUrl(env: NodeJS.ProcessEnv): string | undefined {
  // As Probot reads them: unset or empty is https, and nothing is trimmed.
  const protocol = env.GHE_PROTOCOL || "https";
  // A scheme's case does not matter to a URL: `HTTPS` works as Probot joins it.
  if (!["https", "http"].includes(protocol.toLowerCase()))
    throw new Error(`GHE_PROTOCOL must be https or http, not '${env.GHE_PROTOCOL}'`);
  const host = env.GHE_HOST;
  if (!host) return undefined;
  if (!HOST.test(host))
    throw new Error(
      `GHE_HOST must be the server's host name, with a port if it needs one (ghe.example.com), without a scheme or a path (GHE_PROTOCOL says http or https), not '${env.GHE_HOST}'`,
    );
  return `${protocol}://${host}/api/v3`;
}
