package dev.tidings.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layout's rules, checked on every build: capabilities never reach up into the edges (HTTP, CLI,
 * wiring); a port's package never knows its adapters; capability packages form no cycles.
 */
class DependencyDirectionTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.tidings");
  }

  @Test
  void capabilities_do_not_depend_on_the_edges() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "dev.tidings.web..", "dev.tidings.cli..", "dev.tidings.app..", "dev.tidings")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.tidings.web..", "dev.tidings.cli..", "dev.tidings.app..")
        .because(
            "the HTTP and CLI edges assemble capabilities; capabilities never call back up into them")
        .check(classes);
  }

  @Test
  void the_http_edge_does_not_depend_on_the_cli() {
    noClasses()
        .that()
        .resideInAPackage("dev.tidings.web..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.tidings.cli..", "dev.tidings.app..")
        .check(classes);
  }

  @Test
  void ports_do_not_know_their_adapters() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.tidings.coordination", "dev.tidings.queue", "dev.tidings.mail")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.tidings.coordination.*..", "dev.tidings.queue.*..", "dev.tidings.mail.*..")
        .because(
            "capability -> port <- adapter: only the wiring in dev.tidings.app picks an adapter")
        .check(classes);
  }

  private static final String[] ADAPTERS = {
    "dev.tidings.coordination.inprocess..",
    "dev.tidings.coordination.redis..",
    "dev.tidings.coordination.postgres..",
    "dev.tidings.queue.postgres..",
    "dev.tidings.queue.rabbitmq..",
    "dev.tidings.mail.smtp..",
    "dev.tidings.mail.outbox..",
    "dev.tidings.events.rabbitmq.."
  };

  @Test
  void only_the_wiring_picks_adapters() {
    var outside = new String[ADAPTERS.length + 1];
    outside[0] = "dev.tidings.app..";
    System.arraycopy(ADAPTERS, 0, outside, 1, ADAPTERS.length);
    noClasses()
        .that()
        .resideOutsideOfPackages(outside)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(ADAPTERS)
        .because("capabilities, commands and routes use ports; dev.tidings.app alone chooses"
            + " the in-process, Redis, PostgreSQL, RabbitMQ, SMTP or outbox adapter behind them")
        .check(classes);
  }

  @Test
  void only_the_wiring_starts_or_connects_a_database() {
    noClasses()
        .that()
        .resideOutsideOfPackages("dev.tidings.app..", "dev.tidings.storage..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.tidings.storage.EmbeddedPostgresServer")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("dev.tidings.storage.ConnectionSpec")
        .because("which PostgreSQL a node uses is configuration, read in one place")
        .check(classes);
  }

  @Test
  void shared_http_parts_know_no_capability_routes() {
    noClasses()
        .that()
        .resideInAPackage("dev.tidings.web")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.tidings.web.*..")
        .because("each capability's routes build on the shared HTTP edge, never the reverse")
        .check(classes);
  }

  @Test
  void capability_routes_do_not_use_each_other() {
    slices()
        .matching("dev.tidings.web.(*)..")
        .should()
        .notDependOnEachOther()
        .because("one capability's routes call its own services; shared parts live in web")
        .check(classes);
  }

  @Test
  void adapters_of_one_port_do_not_use_each_other() {
    for (String port : new String[] {"coordination", "queue", "mail"}) {
      slices()
          .matching("dev.tidings." + port + ".(*)..")
          .should()
          .notDependOnEachOther()
          .because("each adapter of the " + port + " port stands alone behind the port")
          .check(classes);
    }
  }

  @Test
  void capability_packages_have_no_cycles() {
    slices().matching("dev.tidings.(*)..").should().beFreeOfCycles().check(classes);
  }
}
