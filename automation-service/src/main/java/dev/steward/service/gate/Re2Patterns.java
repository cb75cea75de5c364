package dev.steward.service.gate;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * The schemas' {@code pattern} and {@code patternProperties}, matched by RE2 (linear time): a
 * schema comes from a tool's author — an external MCP server's among them — and the value from the
 * model, and a backtracking engine would let the two together hold the gate for minutes. A pattern
 * RE2 cannot take (a back-reference, a look-around) makes the schema unusable, and the call is
 * refused rather than checked by a weaker rule.
 */
final class Re2Patterns implements RegularExpressionFactory {

  @Override
  public RegularExpression getRegularExpression(String regex) {
    Pattern p;
    try {
      p = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "the pattern /" + regex + "/ cannot be matched safely (" + e.getDescription() + ")", e);
    }
    // JSON Schema's "pattern" is not anchored: the value matches if any part of it does.
    return value -> p.matcher(value).find();
  }
}
