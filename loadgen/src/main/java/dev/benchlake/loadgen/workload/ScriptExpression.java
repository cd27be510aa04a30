package dev.benchlake.loadgen.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * An integer expression of a script's {@code \set} command, a subset of pgbench's: integer
 * literals, {@code :variables}, {@code + - * / %} (integer arithmetic, {@code /} truncates),
 * unary minus, parentheses, and the functions {@code random(lo, hi)} (uniform, both ends
 * included), {@code abs(x)}, {@code least(a, b, …)}, {@code greatest(a, b, …)}.
 */
abstract class ScriptExpression {
  /** Evaluates with the variables' current values ({@code slots}). */
  abstract long eval(long[] slots, SplittableRandom random);

  /**
   * Parses {@code text}.
   *
   * @param slotOf the slot of each variable defined so far
   * @throws IllegalArgumentException naming what is wrong
   */
  static ScriptExpression parse(String text, Map<String, Integer> slotOf) {
    Parser p = new Parser(text, slotOf);
    ScriptExpression e = p.sum();
    p.skipSpaces();
    if (p.pos < text.length()) {
      throw new IllegalArgumentException("unexpected '" + text.substring(p.pos) + "' in expression '" + text + "'");
    }
    return e;
  }

  private static final class Parser {
    private final String text;
    private final Map<String, Integer> slotOf;
    private int pos;

    Parser(String text, Map<String, Integer> slotOf) {
      this.text = text;
      this.slotOf = slotOf;
    }

    void skipSpaces() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    private boolean accept(char c) {
      skipSpaces();
      if (pos < text.length() && text.charAt(pos) == c) {
        pos++;
        return true;
      }
      return false;
    }

    ScriptExpression sum() {
      ScriptExpression left = product();
      while (true) {
        if (accept('+')) {
          left = binary(left, product(), '+');
        } else if (accept('-')) {
          left = binary(left, product(), '-');
        } else {
          return left;
        }
      }
    }

    ScriptExpression product() {
      ScriptExpression left = unary();
      while (true) {
        if (accept('*')) {
          left = binary(left, unary(), '*');
        } else if (accept('/')) {
          left = binary(left, unary(), '/');
        } else if (accept('%')) {
          left = binary(left, unary(), '%');
        } else {
          return left;
        }
      }
    }

    ScriptExpression unary() {
      if (accept('-')) {
        ScriptExpression inner = unary();
        return new ScriptExpression() {
          @Override
          long eval(long[] slots, SplittableRandom random) {
            return -inner.eval(slots, random);
          }
        };
      }
      return primary();
    }

    ScriptExpression primary() {
      skipSpaces();
      if (pos >= text.length()) {
        throw new IllegalArgumentException("expression '" + text + "' ends too early");
      }
      char c = text.charAt(pos);
      if (accept('(')) {
        ScriptExpression inner = sum();
        expect(')');
        return inner;
      }
      if (Character.isDigit(c)) {
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
          pos++;
        }
        long value = Long.parseLong(text.substring(start, pos));
        return constant(value);
      }
      if (c == ':') {
        pos++;
        String name = identifier();
        Integer slot = slotOf.get(name);
        if (slot == null) {
          throw new IllegalArgumentException("variable :" + name + " is not defined (\\set it earlier or --define it)");
        }
        int s = slot;
        return new ScriptExpression() {
          @Override
          long eval(long[] slots, SplittableRandom random) {
            return slots[s];
          }
        };
      }
      if (Character.isLetter(c)) {
        String function = identifier();
        expect('(');
        List<ScriptExpression> args = new ArrayList<>();
        if (!accept(')')) {
          do {
            args.add(sum());
          } while (accept(','));
          expect(')');
        }
        return function(function, args);
      }
      throw new IllegalArgumentException("unexpected '" + c + "' in expression '" + text + "'");
    }

    private String identifier() {
      int start = pos;
      while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
        pos++;
      }
      if (start == pos) {
        throw new IllegalArgumentException("a name is missing in expression '" + text + "'");
      }
      return text.substring(start, pos);
    }

    private void expect(char c) {
      if (!accept(c)) {
        throw new IllegalArgumentException("'" + c + "' expected in expression '" + text + "'");
      }
    }

    private ScriptExpression function(String name, List<ScriptExpression> args) {
      ScriptExpression[] a = args.toArray(new ScriptExpression[0]);
      switch (name) {
        case "random" -> {
          arity(name, a, 2);
          return new ScriptExpression() {
            @Override
            long eval(long[] slots, SplittableRandom random) {
              long lo = a[0].eval(slots, random);
              long hi = a[1].eval(slots, random);
              if (hi < lo) {
                throw new IllegalArgumentException("random(" + lo + ", " + hi + "): upper bound below lower bound");
              }
              return hi == Long.MAX_VALUE ? lo + random.nextLong(hi - lo) : random.nextLong(lo, hi + 1);
            }
          };
        }
        case "abs" -> {
          arity(name, a, 1);
          return new ScriptExpression() {
            @Override
            long eval(long[] slots, SplittableRandom random) {
              return Math.abs(a[0].eval(slots, random));
            }
          };
        }
        case "least", "greatest" -> {
          if (a.length == 0) {
            throw new IllegalArgumentException(name + "() needs at least one argument");
          }
          boolean least = name.equals("least");
          return new ScriptExpression() {
            @Override
            long eval(long[] slots, SplittableRandom random) {
              long best = a[0].eval(slots, random);
              for (int i = 1; i < a.length; i++) {
                long v = a[i].eval(slots, random);
                best = least ? Math.min(best, v) : Math.max(best, v);
              }
              return best;
            }
          };
        }
        default -> throw new IllegalArgumentException(
            "unknown function " + name + "() (known: random, abs, least, greatest)");
      }
    }

    private static void arity(String name, ScriptExpression[] args, int n) {
      if (args.length != n) {
        throw new IllegalArgumentException(name + "() takes " + n + " argument" + (n == 1 ? "" : "s") + ", not " + args.length);
      }
    }

    private static ScriptExpression binary(ScriptExpression l, ScriptExpression r, char op) {
      return new ScriptExpression() {
        @Override
        long eval(long[] slots, SplittableRandom random) {
          long a = l.eval(slots, random);
          long b = r.eval(slots, random);
          return switch (op) {
            case '+' -> a + b;
            case '-' -> a - b;
            case '*' -> a * b;
            case '/' -> {
              if (b == 0) {
                throw new ArithmeticException("division by zero in a \\set expression");
              }
              yield a / b;
            }
            default -> {
              if (b == 0) {
                throw new ArithmeticException("modulo by zero in a \\set expression");
              }
              yield a % b;
            }
          };
        }
      };
    }

    private static ScriptExpression constant(long value) {
      return new ScriptExpression() {
        @Override
        long eval(long[] slots, SplittableRandom random) {
          return value;
        }
      };
    }
  }
}
