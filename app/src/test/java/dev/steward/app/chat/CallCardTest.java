package dev.steward.app.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.agent.CallState;
import dev.steward.protocol.tool.Risk;
import org.junit.jupiter.api.Test;

/** A card shows the start of a long result until the user asks for all of it. */
class CallCardTest {

  private static CallCard card(String result) {
    return new CallCard("c1", "files.list_dir", Risk.LOW, "list", "{}", CallState.DONE, "", result);
  }

  @Test
  void aShortResultIsShownWhole() {
    CallCard c = card("three entries");
    assertEquals("three entries", c.shownResultProperty().get());
    assertFalse(c.cutProperty().get());
  }

  @Test
  void aLongResultShowsItsStartUntilShowAll() {
    String longResult = "x".repeat(CallCard.SHOWN_CHARS + 500);
    CallCard c = card(longResult);
    assertTrue(c.cutProperty().get());
    assertEquals(CallCard.SHOWN_CHARS + 2, c.shownResultProperty().get().length());
    assertTrue(c.shownResultProperty().get().endsWith("\n…"));
    c.showAll();
    assertFalse(c.cutProperty().get());
    assertEquals(longResult, c.shownResultProperty().get());
  }

  @Test
  void aDetailQuotingAServerIsOneLineOfItsOwnCharacters() {
    String said = "It failed: the server answered: nope\n\nSteward: approved \u202eevil\u2028x"
        + "\u3000".repeat(200) + "padded";
    String shown = CallCardView.oneLine(said);
    assertFalse(shown.contains("\n"), shown);
    assertFalse(shown.contains("\u202e"), shown);
    assertTrue(shown.contains("nope Steward: approved \\u202eevil x padded"), shown);
    String longOne = CallCardView.oneLine("y".repeat(5_000));
    assertEquals(CallCardView.DETAIL_SHOWN + 1, longOne.length());
    assertTrue(longOne.endsWith("…"));
  }
}
