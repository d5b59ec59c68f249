/**
 * A run the user asked for that cannot be done as asked (a file that cannot be read, options that exclude
 * each other, a ref git does not know): its message is shown as it is, with no stack, and `check` exits 2.
 */
export class UsageError extends Error {
  /** `details`: lines printed below the message, indented (a file's problems, one a line). */
  constructor(
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

/** What a failed file operation means to the user, in words rather than an errno code. */
export function describeErrno(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a directory";
    case "ELOOP":
      return "too many levels of symbolic links (a link that leads back to itself?)";
    case "ENOTDIR":
      return "a part of its path is not a directory";
    case "EEXIST":
      return "something else is already there";
    case "ENOSPC":
    case "EDQUOT":
      return "no space left on the device";
    case "EROFS":
      return "the file system is read-only";
    case "EINVAL":
      return "the system does not take a file there";
    case "EFBIG":
      return "the file would be too large";
    case "EIO":
      return "an input/output error";
    default:
      return code ?? String(e);
  }
}
