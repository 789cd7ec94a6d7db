// Files attached to a chat message: they are copied into the agent's
// workspace (warren.Attach) and the message names them, so the agent reads
// them with read_file like any other workspace file.
import type { Attachment } from './types';

/** The largest file that can be attached (warren.MaxAttachmentSize). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** A size as people read it: "912 B", "12.3 KB", "4.0 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** The message sent: the user's text, then the attached files for the agent to read. */
export function attachmentNote(text: string, files: Attachment[]): string {
  if (files.length === 0) return text;
  const list = files.map((f) => `- ${f.path} (${formatBytes(f.size)})`).join('\n');
  const note = `Attached ${files.length === 1 ? 'file' : 'files'} (in the workspace; read with read_file):\n${list}`;
  return text ? `${text}\n\n${note}` : note;
}

/** Why file cannot be attached, before reading it; null when it can. */
export function attachProblem(file: File): string | null {
  if (file.size > MAX_ATTACHMENT_BYTES)
    return `${file.name} is ${formatBytes(file.size)}: the file is too large to attach (files up to 10 MB can be attached)`;
  return null;
}

/** A file's bytes as base64 (what the AttachFile binding takes). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1)); // drop "data:…;base64,"
    };
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsDataURL(file);
  });
}
