package dev.steward.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The app's layers (JabRef's split): the agent and the service link know nothing of JavaFX; view
 * models hold state but never controls; the model library stays in the agent; and the app talks
 * to the service only over the protocol, never by linking its code.
 */
class ArchitectureTest {

  static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.steward.app");

  @Test
  void the_app_reaches_the_service_only_through_the_protocol() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.steward.service..")
        .check(CLASSES);
  }

  @Test
  void agent_service_and_config_do_not_use_javafx() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.steward.app.agent..", "dev.steward.app.config..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("javafx..")
        .check(CLASSES);
  }

  @Test
  void view_models_never_touch_controls() {
    noClasses()
        .that()
        .haveSimpleNameEndingWith("ViewModel")
        .or()
        .haveSimpleName("CallCard")
        .or()
        .haveSimpleName("MessageEntry")
        .or()
        .haveSimpleName("ApprovalItem")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("javafx.scene..", "javafx.stage..")
        .check(CLASSES);
  }

  @Test
  void sql_stays_in_the_chat_history() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.steward.app.history..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "org.h2..")
        .check(CLASSES);
  }

  @Test
  void langchain4j_stays_in_the_agent() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.steward.app.agent..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.langchain4j..")
        .check(CLASSES);
  }

  @Test
  void one_approver_shows_every_dialog_of_the_window() {
    // Each approver keeps its own line of dialogs: a second one (say, for other clients) would
    // show its dialog over the first, where the user's click aimed at that one lands.
    var made = CLASSES.get(dev.steward.app.approval.FxApprover.class).getConstructorCallsToSelf();
    org.junit.jupiter.api.Assertions.assertEquals(1, made.size(), String.valueOf(made));
    var where = made.iterator().next().getOrigin();
    org.junit.jupiter.api.Assertions.assertEquals(
        StewardApp.class.getName() + ".connect",
        where.getOwner().getName() + "." + where.getName(),
        "made once, where the agent and the other clients' approvals are given it");
  }
}
