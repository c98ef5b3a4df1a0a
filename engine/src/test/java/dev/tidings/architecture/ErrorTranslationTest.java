package dev.tidings.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.tidings.TidingsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Routes and pages never catch one of Tidings' own failures to choose an answer for it: a failure
 * reaches the one mapping of kinds to statuses (web.ErrorMapping, web.KindStatus), and a page that
 * shows a refusal holds it as a value (dev.tidings.Attempt). A catch of {@link TidingsException} or
 * any subclass anywhere under web/ fails here, named by file and line.
 */
class ErrorTranslationTest {
  private static final Path WEB = Path.of("src/main/java/dev/tidings/web");
  private static final Pattern CATCH =
      Pattern.compile("catch\\s*\\(\\s*(?:final\\s+)?([\\w.$|\\s]+?)\\s+\\w+\\s*\\)");

  private static Set<String> domainFailures;

  @BeforeAll
  static void findTheDomainsFailures() {
    domainFailures = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tidings")
            .stream()
            .filter(type -> type.isAssignableTo(TidingsException.class))
            .map(JavaClass::getSimpleName)
            .filter(name -> !name.isEmpty())
            .collect(Collectors.toSet());
  }

  @Test
  void the_failures_looked_for_include_the_root_and_its_subclasses() {
    assertThat(domainFailures)
        .contains(
            "TidingsException",
            "InvalidInputException",
            "KeyProblem",
            "WebhookRefused",
            "ApiProblem");
  }

  @Test
  void the_scan_finds_a_catch_that_names_a_domain_failure_and_passes_one_that_does_not() {
    String source = """
        try {
          run();
        } catch (IllegalStateException | dev.tidings.InvalidInputException refused) {
          throw ApiProblem.badRequest(refused.detail());
        } catch (NumberFormatException e) {
          return 0;
        }
        """;
    assertThat(offenders("Example.java", source)).containsExactly("Example.java:3");
  }

  @Test
  void no_route_or_page_catches_a_domain_failure_to_translate_it() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(WEB)) {
      for (Path file :
          files.filter(f -> f.toString().endsWith(".java")).sorted().toList())
        found.addAll(offenders(WEB.relativize(file).toString(), Files.readString(file)));
    }
    assertThat(found)
        .as("routes and pages that catch a domain failure instead of letting its kind answer it")
        .isEmpty();
  }

  private static List<String> offenders(String file, String source) {
    List<String> out = new ArrayList<>();
    var clause = CATCH.matcher(source);
    while (clause.find()) {
      for (String type : clause.group(1).split("\\|")) {
        String name = type.trim();
        String simple = name.substring(name.lastIndexOf('.') + 1);
        if (domainFailures.contains(simple)) {
          long line =
              source.substring(0, clause.start()).chars().filter(c -> c == '\n').count() + 1;
          out.add(file + ":" + line);
          break;
        }
      }
    }
    return out;
  }
}
