/** The token and API address of the commands that read GitHub (`pr`, `audit`), from the environment. */
import { printable } from "../format/printable.js";

/** `GITHUB_TOKEN` and the API's base URL (`--api-url`, else `GITHUB_API_URL`, else github.com); undefined, said on stderr, without a token or with an address that is no URL. */
export function githubAccess(
  apiUrl: string | undefined,
  io: { env: NodeJS.ProcessEnv; stderr: (s: string) => void },
  needs: string,
): { token: string; baseUrl: string } | undefined {
  const token = io.env.GITHUB_TOKEN;
  if (!token) {
    io.stderr(`plugin-review: set GITHUB_TOKEN to a token that can read ${needs}\n`);
    return undefined;
  }
  const baseUrl = (apiUrl ?? io.env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/+$/, "");
  // A mistyped address is the user's mistake, said as such: not a request that "GitHub answered" with 500.
  if (!/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? "")) {
    const from = apiUrl !== undefined ? "--api-url" : "GITHUB_API_URL";
    io.stderr(
      `plugin-review: ${from} must be an http(s) URL such as https://<host>/api/v3, not '${printable(baseUrl)}'\n`,
    );
    return undefined;
  }
  return { token, baseUrl };
}
