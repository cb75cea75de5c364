package dev.steward.service.audit;

import java.sql.SQLException;
import java.util.List;

/** Persistence for confirm-token records, in the audit database (never the token values). */
public final class TokenRecords {

  private final AuditStore store;

  TokenRecords(AuditStore store) {
    this.store = store;
  }

  public void save(String tokenId, String record, long expiresAtMicros) throws SQLException {
    store.saveToken(tokenId, record, expiresAtMicros);
  }

  public void delete(String tokenId) throws SQLException {
    store.deleteToken(tokenId);
  }

  public List<String> live(long nowMicros) throws SQLException {
    return store.liveTokens(nowMicros);
  }
}
