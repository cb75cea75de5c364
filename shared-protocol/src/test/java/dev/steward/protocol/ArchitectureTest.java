package dev.steward.protocol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

  @Test
  void the_protocol_depends_on_neither_the_service_nor_the_app() {
    var classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.steward.protocol");
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.steward.service..", "dev.steward.app..", "javafx..", "org.eclipse.jetty..")
        .check(classes);
  }
}
