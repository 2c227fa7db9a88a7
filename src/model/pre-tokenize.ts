// Splits bytes into pre-tokens that BPE merges never cross, GPT-2 style but on raw bytes (so any
// byte string works, valid UTF-8 or not). Chunks: an optional single space followed by a word
// (letters, digits, '_', any byte >= 0x80 so multi-byte characters stay whole), or by a run of
// digits, or by a run of punctuation; runs of whitespace, where the last space of a run that precedes
// a non-space is left to start the next chunk (so " x" and "    x" share the " x" token after indent).
// The chunks tile the input exactly, which is what makes decoding the exact inverse of encoding.

const enum Kind {
  Word,
  Digit,
  Space,
  Punct,
}

const KIND = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  const isLetter = (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f || b >= 0x80;
  const isDigit = b >= 0x30 && b <= 0x39;
  const isSpace = b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0b || b === 0x0c;
  KIND[b] = isLetter ? Kind.Word : isDigit ? Kind.Digit : isSpace ? Kind.Space : Kind.Punct;
}

/** Returns [start, end) byte ranges covering `bytes` exactly, in order. */
export function preTokenize(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const start = i;
    let k = KIND[bytes[i]] as Kind;
    // A single leading space joins the non-space chunk that follows it.
    if (bytes[i] === 0x20 && i + 1 < n && KIND[bytes[i + 1]] !== Kind.Space) {
      i++;
      k = KIND[bytes[i]] as Kind;
    }
    if (k === Kind.Space) {
      let j = i;
      while (j < n && KIND[bytes[j]] === Kind.Space) j++;
      // Leave a final space to the next word if the run is longer than one byte.
      if (j < n && j - i > 1 && bytes[j - 1] === 0x20) j--;
      i = j;
    } else if (k === Kind.Word) {
      // Identifiers: letters then letters or digits (x_train2 is one chunk).
      while (i < n && (KIND[bytes[i]] === Kind.Word || KIND[bytes[i]] === Kind.Digit)) i++;
    } else {
      while (i < n && KIND[bytes[i]] === k) i++;
    }
    out.push([start, i]);
  }
  return out;
}
