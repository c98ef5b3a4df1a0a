package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * A capability never hands its transaction to another: no method of one capability that takes a Jdbi
 * {@link Handle} is called (or referred to) from another. Capabilities hear each other through events
 * (dev.tidings.events); the platform packages below them (storage, the event outbox and inbox, the queue
 * tables, jobs, retention, coordination, imports) take a caller's Handle by design, as they write inside
 * the caller's transaction.
 */
class HandleBoundaryTest {
  private static final Set<String> PLATFORM = Set.of(
      "storage", "events", "queue", "jobs", "retention", "coordination", "imports", "config");

  @Test
  void no_handle_parameter_crosses_a_capability_line() {
    JavaClasses classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.tidings");
    Set<String> crossings = new TreeSet<>();
    List<JavaCodeUnit> takingHandles = new ArrayList<>();
    classes.forEach(type -> type.getCodeUnits().stream()
        .filter(unit -> unit.getRawParameterTypes().stream()
            .anyMatch(parameter -> parameter.isEquivalentTo(Handle.class)))
        .forEach(takingHandles::add));
    assertThat(takingHandles)
        .as("methods that take a Handle exist to be checked")
        .isNotEmpty();
    for (JavaCodeUnit target : takingHandles) {
      String owner = capability(target.getOwner().getPackageName());
      if (PLATFORM.contains(owner)) continue;
      for (JavaAccess<?> access : target.getAccessesToSelf()) {
        String caller = capability(access.getOriginOwner().getPackageName());
        if (!caller.equals(owner))
          crossings.add(caller + " -> " + target.getOwner().getSimpleName() + "." + target.getName()
              + " (" + access.getSourceCodeLocation() + ")");
      }
    }
    assertThat(crossings).as("calls that hand a Handle to another capability").isEmpty();
  }

  /** The top-level package under dev.tidings: the capability (or platform part) a class belongs to. */
  private static String capability(String packageName) {
    String rest = packageName.startsWith("dev.tidings.")
        ? packageName.substring("dev.tidings.".length())
        : "";
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
