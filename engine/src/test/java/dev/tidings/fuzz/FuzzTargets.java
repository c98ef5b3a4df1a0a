package dev.tidings.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every {@code @FuzzTest} of the test classes named {@code *FuzzTest}, each a method taking the fuzzer's
 * bytes, with its seed corpus: the files Jazzer itself reads in regression mode, under
 * {@code src/test/resources/<package>/<Class>Inputs/<method>/}.
 */
public record FuzzTargets() {
  /** One fuzz target. */
  public record Target(Class<?> type, Method method) {
    public String name() {
      return type.getSimpleName() + "#" + method.getName();
    }

    public String inputsResource() {
      return type.getName().replace('.', '/') + "Inputs/" + method.getName();
    }

    /** The seed files, sorted by name, so that a seeded run is repeatable. */
    public List<byte[]> seeds() {
      var url = type.getClassLoader().getResource(inputsResource());
      if (url == null) return List.of();
      try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
        List<byte[]> seeds = new ArrayList<>();
        for (Path file : files.filter(Files::isRegularFile).sorted().toList())
          seeds.add(Files.readAllBytes(file));
        return seeds;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }

    /** Runs the target on {@code data}; what it throws is its finding. */
    public void run(byte[] data) throws Throwable {
      try {
        Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        Object instance = constructor.newInstance();
        method.setAccessible(true);
        method.invoke(instance, (Object) data);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  /** Every target, in a stable order. */
  public static List<Target> all() {
    Path root = testClasses();
    try (Stream<Path> files = Files.walk(root)) {
      List<Target> targets = new ArrayList<>();
      for (Path file : files
          .filter(f -> f.getFileName().toString().endsWith("FuzzTest.class"))
          .toList()) {
        String relative = root.relativize(file).toString();
        String className =
            relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
        Class<?> type = Class.forName(className, false, FuzzTargets.class.getClassLoader());
        for (Method method : type.getDeclaredMethods()) {
          if (method.isAnnotationPresent(FuzzTest.class)
              && method.getParameterCount() == 1
              && method.getParameterTypes()[0] == byte[].class)
            targets.add(new Target(type, method));
        }
      }
      targets.sort(Comparator.comparing(Target::name));
      return targets;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path testClasses() {
    try {
      return Path.of(
          FuzzTargets.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
