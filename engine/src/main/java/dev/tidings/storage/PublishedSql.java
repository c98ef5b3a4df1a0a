package dev.tidings.storage;

import java.util.regex.Pattern;

/**
 * SQL a capability publishes for others to compose into their own statements (a predicate on a
 * subscriber row, a derived table with named columns), marked with the capability that owns the tables
 * it reads. The mark is a pair of SQL comments around the fragment, "published by audience" before and
 * "end audience" after, that travels with the statement to PostgreSQL: whoever reads an executed
 * statement (the check over the SQL the tests run, {@code pg_stat_statements}, a slow-query log) can
 * tell the parts an owner wrote from those of the capability that runs it. The comments hold no colon
 * or question mark, so neither JDBI nor the driver takes them for parameters.
 */
public final class PublishedSql {
  private static final String ROOT = "dev.tidings.";
  private static final Pattern CAPABILITY = Pattern.compile("[a-z]+");

  private PublishedSql() {}

  /** {@code sql} as published by the capability whose package holds {@code owner}. */
  public static String by(Class<?> owner, String sql) {
    String capability = capabilityOf(owner);
    return "/*published by " + capability + "*/ " + sql + " /*end " + capability + "*/";
  }

  /** The capability of a class: the first package under {@code dev.tidings}. */
  static String capabilityOf(Class<?> owner) {
    String name = owner.getPackageName();
    if (!name.startsWith(ROOT))
      throw new IllegalArgumentException("not a capability's class: " + owner.getName());
    String rest = name.substring(ROOT.length());
    int dot = rest.indexOf('.');
    String capability = dot < 0 ? rest : rest.substring(0, dot);
    if (!CAPABILITY.matcher(capability).matches())
      throw new IllegalArgumentException("not a capability's class: " + owner.getName());
    return capability;
  }
}
