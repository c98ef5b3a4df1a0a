package dev.tidings.testing;

/**
 * The quick run ({@code ./mvnw -Pquick -pl engine test}) sets {@value #PROPERTY}: a server started then
 * belongs to a class that should have said {@link StartsServers}, and fails it with that advice.
 */
public final class QuickRun {
  public static final String PROPERTY = "tidings.tests.quick";

  private QuickRun() {}

  /** Fails a server's start in the quick run: {@code what} names the server. */
  public static void refuse(String what) {
    if (Boolean.getBoolean(PROPERTY))
      throw new IllegalStateException(
          "this test starts " + what + ", which the quick run leaves out:" + " annotate its class @"
              + StartsServers.class.getName());
  }
}
