/** What XREAD and XREADGROUP answer: per stream, its entries as [id, fields]. */
export type StreamReply = Array<[string, Array<[string, string[]]>]> | null;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
