/** `plugin-review audit <org>`: a thin shell over src/github/audit.ts (token, progress line, output). */
import { AUDIT_FORMATS, formatAudit, type AuditFormat } from "../format/audit/text.js";
import { auditOctokit, auditOrganization } from "../github/audit/collect.js";
import { describeRequestError } from "../github/api/errors.js";
import { githubAccess } from "./github-access.js";

export interface AuditCliOptions {
  org: string;
  repos: string[];
  /** The App's slug, to find its installation (default plugin-review). */
  app?: string;
  apiUrl?: string;
  format: string;
}

export interface AuditIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: only then is a progress line drawn (and redrawn in place). */
  stderrIsTTY: boolean;
}

export async function runAudit(opts: AuditCliOptions, io: AuditIo): Promise<number> {
  if (!AUDIT_FORMATS.includes(opts.format as AuditFormat)) {
    io.stderr(
      `plugin-review: audit --format must be one of ${AUDIT_FORMATS.join(", ")}, not '${opts.format}'\n`,
    );
    return 2;
  }
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/.test(opts.org)) {
    io.stderr(`plugin-review: '${opts.org}' is not an organisation name\n`);
    return 2;
  }
  const access = githubAccess(
    opts.apiUrl,
    io,
    "the organisation's repositories (and its .github repository)",
  );
  if (!access) return 2;
  const octokit = auditOctokit(access.token, access.baseUrl, (m) => io.stderr(`plugin-review: ${m}\n`));
  const progress = io.stderrIsTTY
    ? (done: number, total: number, repo: string) => io.stderr(`\r\u001b[2K[${done}/${total}] ${repo}`)
    : undefined;
  let report;
  try {
    report = await auditOrganization(octokit, {
      org: opts.org,
      repos: opts.repos,
      ...(opts.app ? { app: opts.app } : {}),
      ...(progress ? { onProgress: progress } : {}),
    });
  } catch (e) {
    io.stderr(`plugin-review: ${describeRequestError(e, `listing the repositories of ${opts.org}`)}\n`);
    return 2;
  } finally {
    if (progress) io.stderr("\r\u001b[2K");
  }
  io.stdout(formatAudit(report, opts.format as AuditFormat));
  return 0;
}
