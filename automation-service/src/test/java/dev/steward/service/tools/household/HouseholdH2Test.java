package dev.steward.service.tools.household;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The household contract on the database a household keeps on its own machine (H2). */
class HouseholdH2Test extends HouseholdContract {

  @TempDir
  Path dir;

  @Override
  HouseholdFixture fixture() throws Exception {
    return HouseholdFixture.h2(dir);
  }
}
