package dev.steward.service.audit;

import java.sql.SQLException;
import java.util.List;

/** Confirm-token records (never the token values) kept in the audit database. */
final class StoredTokenRecords implements TokenRecords {

  private final AuditStore store;

  StoredTokenRecords(AuditStore store) {
    this.store = store;
  }

  @Override
  public void save(String tokenId, String record, long expiresAtMicros)
      throws AuditUnavailableException {
    try {
      store.saveToken(tokenId, record, expiresAtMicros);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }

  @Override
  public void delete(String tokenId) throws AuditUnavailableException {
    try {
      store.deleteToken(tokenId);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }

  @Override
  public List<String> live(long nowMicros) throws AuditUnavailableException {
    try {
      return store.liveTokens(nowMicros);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }
}
