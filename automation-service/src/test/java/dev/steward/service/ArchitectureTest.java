package dev.steward.service;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The service's layers stay apart: security rules do not reach into the transport, and so on. */
class ArchitectureTest {

  static final JavaClasses CLASSES =
      new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.steward.service");

  @Test
  void the_service_never_uses_the_app_or_javafx() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.steward.app..", "javafx..").check(CLASSES);
  }

  @Test
  void playwright_stays_in_the_browser_tool() {
    noClasses().that().resideOutsideOfPackage("dev.steward.service.tools.browser..")
        .should().dependOnClassesThat().resideInAnyPackage("com.microsoft.playwright..").check(CLASSES);
  }

  @Test
  void jetty_stays_in_the_transport() {
    noClasses().that().resideOutsideOfPackages("dev.steward.service.transport..", "dev.steward.service")
        .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty..").check(CLASSES);
  }

  @Test
  void the_security_rules_do_not_depend_on_the_transport_or_rpc() {
    noClasses().that().resideInAnyPackage("dev.steward.service.scope..", "dev.steward.service.token..", "dev.steward.service.gate..",
            "dev.steward.service.audit..", "dev.steward.service.tools..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.steward.service.transport..", "dev.steward.service.rpc..").check(CLASSES);
  }

  @Test
  void tools_do_not_reach_around_the_gate() {
    noClasses().that().resideInAnyPackage("dev.steward.service.tools..")
        .should().dependOnClassesThat().resideInAnyPackage("dev.steward.service.gate..", "dev.steward.service.token..", "dev.steward.service.audit..")
        .check(CLASSES);
  }

  @Test
  void awt_stays_in_the_clipboard_tool() {
    noClasses().that().resideOutsideOfPackage("dev.steward.service.tools.clipboard..")
        .should().dependOnClassesThat().resideInAnyPackage("java.awt..").check(CLASSES);
  }

  @Test
  void sql_stays_in_the_audit_log() {
    noClasses().that().resideOutsideOfPackage("dev.steward.service.audit..")
        .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.h2..").check(CLASSES);
  }
}
