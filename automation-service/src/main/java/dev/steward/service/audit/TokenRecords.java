package dev.steward.service.audit;

import java.util.List;

/** Where confirm-token records are kept (never the token values): the audit database, normally. */
public interface TokenRecords {

  void save(String tokenId, String record, long expiresAtMicros) throws AuditUnavailableException;

  void delete(String tokenId) throws AuditUnavailableException;

  List<String> live(long nowMicros) throws AuditUnavailableException;

  /** Records kept in memory only: tokens then do not survive a restart (for tests and tools). */
  static TokenRecords inMemory() {
    java.util.Map<String, String> records = new java.util.concurrent.ConcurrentHashMap<>();
    return new TokenRecords() {
      @Override
      public void save(String tokenId, String record, long expiresAtMicros) {
        records.put(tokenId, record);
      }

      @Override
      public void delete(String tokenId) {
        records.remove(tokenId);
      }

      @Override
      public List<String> live(long nowMicros) {
        return List.copyOf(records.values());
      }
    };
  }
}
