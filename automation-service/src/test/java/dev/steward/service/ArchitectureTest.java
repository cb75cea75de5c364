package dev.steward.service;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The service's layers stay apart: security rules do not reach into the transport, and so on. */
class ArchitectureTest {

  static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.steward.service");

  /** Each pack is a package below {@code tools}; {@code tools} itself is the contract they share. */
  private static final String PACKS = "dev.steward.service.tools.*..";

  @Test
  void the_service_never_uses_the_app_or_javafx() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.steward.app..", "javafx..")
        .check(CLASSES);
  }

  @Test
  void playwright_stays_in_the_browser_tool() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.steward.service.tools.browser..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.microsoft.playwright..")
        .check(CLASSES);
  }

  @Test
  void jetty_stays_in_the_transport() {
    noClasses()
        .that()
        .resideOutsideOfPackages("dev.steward.service.transport..", "dev.steward.service")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.eclipse.jetty..")
        .check(CLASSES);
  }

  @Test
  void the_security_rules_do_not_depend_on_the_transport_or_rpc() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.steward.service.scope..",
            "dev.steward.service.token..",
            "dev.steward.service.gate..",
            "dev.steward.service.audit..",
            "dev.steward.service.tools..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.steward.service.transport..", "dev.steward.service.rpc..")
        .check(CLASSES);
  }

  @Test
  void tools_do_not_reach_around_the_gate() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.steward.service.tools..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.steward.service.gate..",
            "dev.steward.service.token..",
            "dev.steward.service.audit..")
        .check(CLASSES);
  }

  @Test
  void awt_stays_in_the_desktop_pack() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.steward.service.tools.desktop..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.awt..")
        .check(CLASSES);
  }

  @Test
  void packs_build_on_the_tool_contract_only() {
    noClasses()
        .that()
        .resideInAPackage(PACKS)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.steward.service.gate..",
            "dev.steward.service.transport..",
            "dev.steward.service.rpc..",
            "dev.steward.service.audit..",
            "dev.steward.service.token..",
            "dev.steward.service.policy..",
            "dev.steward.service.config..",
            "dev.steward.service")
        .check(CLASSES);
  }

  @Test
  void packs_do_not_depend_on_each_other() {
    slices()
        .matching("dev.steward.service.tools.(*)..")
        .should()
        .notDependOnEachOther()
        .check(CLASSES);
  }

  @Test
  void only_the_packs_name_a_particular_tool() {
    noClasses()
        .that()
        .resideOutsideOfPackage(PACKS)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(PACKS)
        .check(CLASSES);
  }

  /** SQL is the audit log's, and the household and mail packs' for their own databases; no one else's. */
  @Test
  void sql_stays_in_the_audit_log_and_the_household_and_mail_packs() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "dev.steward.service.audit..",
            "dev.steward.service.tools.household..",
            "dev.steward.service.tools.mail..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.sql..", "javax.sql..", "org.h2..", "org.postgresql..", "org.flywaydb..")
        .check(CLASSES);
  }
}
