/** The token and API address of the commands that read GitHub (`pr`, `audit`), from the environment. */

/** `GITHUB_TOKEN` and the API's base URL (`--api-url`, else `GITHUB_API_URL`, else github.com); undefined, said on stderr, without a token. */
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
  return {
    token,
    baseUrl: (apiUrl ?? io.env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/+$/, ""),
  };
}
