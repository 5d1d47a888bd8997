/** Certification documents are recognised by their first bytes, never by the client's name or type. */
export interface DocumentType {
  contentType: string;
  extension: string;
}

const PDF: DocumentType = { contentType: 'application/pdf', extension: 'pdf' };
const JPEG: DocumentType = { contentType: 'image/jpeg', extension: 'jpg' };
const DOC: DocumentType = { contentType: 'application/msword', extension: 'doc' };
const DOCX: DocumentType = {
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  extension: 'docx',
};

const startsWith = (data: Buffer, signature: number[]) =>
  data.length >= signature.length && signature.every((byte, index) => data[index] === byte);

export function detectDocumentType(data: Buffer): DocumentType | undefined {
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return PDF; // %PDF-
  if (startsWith(data, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return DOC; // OLE2 compound file
  // A .docx is a ZIP archive (PK\x03\x04) whose entries include the `word/` part; any other ZIP is refused.
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04]) && data.includes('word/')) return DOCX;
  return undefined;
}
