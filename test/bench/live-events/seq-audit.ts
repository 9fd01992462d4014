/** How a received seq list compares with "every seq from 1 to the highest, exactly once". */
export interface SeqAudit {
  duplicates: number;
  /** Seqs between 1 and `maxSeq` never received. */
  missing: number;
  maxSeq: number;
}

/** Counts duplicate and missing seqs in what one client received (any order). */
export function getSeqAudit(seqs: readonly number[]): SeqAudit {
  let maxSeq = 0;
  for (const seq of seqs) if (seq > maxSeq) maxSeq = seq;
  const seen = new Uint8Array(maxSeq + 1);
  let duplicates = 0;
  let distinct = 0;
  for (const seq of seqs) {
    if (seq < 1 || !Number.isInteger(seq)) continue;
    if (seen[seq] === 1) duplicates += 1;
    else {
      seen[seq] = 1;
      distinct += 1;
    }
  }
  return { duplicates, missing: maxSeq - distinct, maxSeq };
}
