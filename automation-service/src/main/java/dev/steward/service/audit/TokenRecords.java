package dev.steward.service.audit;

import java.util.List;

/** Where confirm-token records are kept (never the token values): the audit database, normally. */
public interface TokenRecords {

  void save(String tokenId, String record, long expiresAtMicros) throws AuditUnavailableException;

  void delete(String tokenId) throws AuditUnavailableException;

  List<String> live(long nowMicros) throws AuditUnavailableException;
}
