package dev.tidings.journeys;

import static dev.tidings.fuzz.Refusals.allowOnly;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidings.InvalidInputException;
import dev.tidings.fuzz.Inputs;

/**
 * What an API client sends as a journey: taken, or refused with InvalidInputException naming what is
 * wrong; a journey it takes writes back to the same journey.
 */
class JourneyJsonFuzzTest {
  @FuzzTest
  void journey_json(byte[] data) {
    Inputs.json(data)
        .ifPresent(node -> allowOnly(
            () -> {
              Journey journey = JourneyJson.fromJson(node);
              if (!JourneyJson.fromJson(JourneyJson.toJson(journey)).equals(journey))
                throw new AssertionError("a journey read back differently: " + node);
            },
            InvalidInputException.class));
  }
}
