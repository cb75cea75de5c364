package dev.steward.service.audit;

import dev.steward.protocol.method.Audit;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Where a query is answered: a text filter through the text index, which names the rows that
 * hold the text so H2 reads only those; everything else, or a text filter while the index is not
 * complete, by H2 alone (which checks every row it returns either way).
 */
final class AuditQueries {

  private static final Logger LOG = Logger.getLogger(AuditQueries.class.getName());

  private final AuditStore store;
  private final @Nullable TextIndex textIndex;
  private final BooleanSupplier textReady;

  AuditQueries(AuditStore store, @Nullable TextIndex textIndex, BooleanSupplier textReady) {
    this.store = store;
    this.textIndex = textIndex;
    this.textReady = textReady;
  }

  Audit.QueryResult query(Audit.QueryParams params, int limit) throws AuditUnavailableException {
    String text = params.text();
    byte[] needle = text == null || text.isBlank() ? null : TextIndex.needle(text);
    TextIndex index = textIndex;
    if (needle != null && index != null && textReady.getAsBoolean()) {
      try {
        return queryIndexed(index, needle, params, limit);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "audit: the text index cannot be read; scanning H2", e);
      }
    }
    try {
      return store.query(params, limit);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }

  private Audit.QueryResult queryIndexed(
      TextIndex index, byte[] needle, Audit.QueryParams params, int limit)
      throws IOException, AuditUnavailableException {
    String cursor = params.cursor();
    long below = cursor == null ? Long.MAX_VALUE : AuditStore.cursorSeq(cursor);
    List<Audit.Row> rows = new ArrayList<>();
    SQLException[] failed = {null};
    index.search(needle, below, (seqs, count) -> {
      try {
        // In slices about the size still wanted: the rows found nearly always pass the filters.
        for (int from = 0; from < count && rows.size() <= limit; ) {
          int wanted = limit + 1 - rows.size();
          int to = Math.min(count, from + Math.max(wanted, 64));
          rows.addAll(store.queryAmong(params, seqs, from, to, wanted));
          from = to;
        }
      } catch (SQLException e) {
        failed[0] = e;
        return false;
      }
      return rows.size() <= limit;
    });
    SQLException f = failed[0];
    if (f != null) throw AuditUnavailableException.reading(f);
    String next = null;
    if (rows.size() > limit) {
      rows.subList(limit, rows.size()).clear();
      next = rows.get(rows.size() - 1).auditId();
    }
    return new Audit.QueryResult(rows, next);
  }
}
