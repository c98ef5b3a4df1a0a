package dev.tidings.testing;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

/**
 * A main class of the test class path run in a JVM of its own, with JVM options of its own (a small
 * heap, to prove what a piece of code can and cannot hold): its exit status, what it printed and how
 * long it took. A child that outlives its time is killed and its run fails.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code output}: standard output and error together. */
  public record Exit(int status, String output, Duration took) {}

  public static Exit run(
      Class<?> main,
      List<String> jvmOptions,
      List<String> arguments,
      Map<String, String> environment,
      Duration timeout)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath());
    command.add(main.getName());
    command.addAll(arguments);
    Path output = Files.createTempFile("child-jvm-", ".log");
    try {
      var builder = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(output.toFile())
          .directory(Path.of("").toAbsolutePath().toFile());
      builder.environment().putAll(environment);
      long started = System.nanoTime();
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError(main.getSimpleName() + " " + arguments + " ran for more than "
            + timeout + ":\n" + Files.readString(output, StandardCharsets.UTF_8));
      }
      return new Exit(
          process.exitValue(),
          Files.readString(output, StandardCharsets.UTF_8),
          Duration.ofNanos(System.nanoTime() - started));
    } finally {
      Files.deleteIfExists(output);
    }
  }

  /** This JVM's class path, unpacked from Surefire's manifest-only jar when it runs from one. */
  public static String classPath() throws IOException {
    String path = System.getProperty("java.class.path");
    String[] entries = path.split(File.pathSeparator);
    if (entries.length != 1 || !entries[0].endsWith(".jar")) return path;
    try (var jar = new JarFile(entries[0])) {
      var manifest = jar.getManifest();
      String listed = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (listed == null) return path;
      List<String> files = new ArrayList<>();
      for (String url : listed.trim().split("\\s+")) {
        if (!url.isEmpty()) files.add(Path.of(URI.create(url)).toString());
      }
      return String.join(File.pathSeparator, files);
    }
  }
}
