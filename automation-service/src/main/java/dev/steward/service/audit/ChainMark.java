package dev.steward.service.audit;

/** A row's place in the chain: its sequence number and its hash. */
record ChainMark(long seq, String hash) {

  static final ChainMark START = new ChainMark(0, ChainedRow.GENESIS);

  static ChainMark of(ChainedRow row) {
    return new ChainMark(row.seq(), row.rowHash());
  }
}
