import { MIN_MESSAGE, messagesOf } from './stream';

describe('messagesOf', () => {
  it('gathers small pieces into messages of at least MIN_MESSAGE bytes, in order, the last one smaller', () => {
    const pieces = Array.from({ length: 20 }, (_, i) => Buffer.alloc(48 * 1024, i));
    const messages = [...messagesOf(pieces)];
    expect(messages.slice(0, -1).every((m) => m.length >= MIN_MESSAGE)).toBe(true);
    expect(messages.length).toBe(Math.ceil((20 * 48 * 1024) / (MIN_MESSAGE + 32 * 1024)));
    expect(Buffer.concat(messages).equals(Buffer.concat(pieces))).toBe(true);
  });

  it('sends a piece that is large enough as it is, without a copy', () => {
    const big = Buffer.alloc(MIN_MESSAGE + 1, 7);
    const [message] = [...messagesOf([big])];
    expect(message).toBe(big);
    expect([...messagesOf([])]).toEqual([]);
  });

  it('gathers to a smaller least size when asked (blobs from the warm reader), copying only pieces below it', () => {
    const pieces = [
      Buffer.alloc(40 * 1024, 1),
      Buffer.alloc(8 * 1024, 2),
      Buffer.alloc(30 * 1024, 3),
      Buffer.alloc(5, 4),
    ];
    const messages = [...messagesOf(pieces, 32 * 1024)];
    expect(messages.map((m) => m.length)).toEqual([40 * 1024, 38 * 1024, 5]);
    expect(messages[0]).toBe(pieces[0]);
    expect(Buffer.concat(messages).equals(Buffer.concat(pieces))).toBe(true);
  });
});
