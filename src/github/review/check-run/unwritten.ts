/**
 * The failing results of this process's pull request reviews that GitHub has not taken yet (their writes
 * failed; a later retry writes them), by commit. One check run serves every pull request of a head commit,
 * and while such a result is unwritten the run may say nothing of it (no run yet, or another's, or one in
 * progress): another pull request's passing review of that commit looks here too (complete.ts
 * `failingPull`), so that it does not turn the run green meanwhile. Only where to look: each pull request
 * named is read from GitHub before it holds a pass back.
 */
export class UnwrittenFailures {
  private readonly byCommit = new Map<string, Set<number>>();

  /** `max`: how many commits are remembered; past it, the oldest is forgotten. */
  constructor(private readonly max = 10_000) {}

  /** `pull`'s failing result for `commit` (`owner/repo@sha`) is being written. */
  add(commit: string, pull: number): void {
    const pulls = this.byCommit.get(commit) ?? new Set<number>();
    this.byCommit.delete(commit); // the latest last: the oldest is forgotten first
    this.byCommit.set(commit, pulls.add(pull));
    if (this.byCommit.size > this.max) this.byCommit.delete(this.byCommit.keys().next().value!);
  }

  /** GitHub took a result of `pull`'s review of `commit`. */
  written(commit: string, pull: number): void {
    const pulls = this.byCommit.get(commit);
    if (!pulls?.delete(pull) || pulls.size) return;
    this.byCommit.delete(commit);
  }

  /** The pull requests other than `pull` whose failing results for `commit` are unwritten. */
  others(commit: string, pull: number): number[] {
    return [...(this.byCommit.get(commit) ?? [])].filter((n) => n !== pull);
  }
}
