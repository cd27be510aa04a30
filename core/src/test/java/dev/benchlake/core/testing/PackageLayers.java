package dev.benchlake.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The package layers of a module (issue 27; each module's README has the table): which of its
 * packages refer to which, read from its main sources, and the references that run against a
 * table of what each package may use. A module's {@code PackageLayersTest} states the table.
 *
 * <p>Read from the sources, not the classes: a reference is any {@code dev.benchlake.x.y.Type}
 * in an import or spelled out in code (ArchUnit, which would read the bytecode, is not among the
 * build's dependencies, and the sources say the same of these packages: checked with {@code jdeps
 * -verbose:package} when this was written). A reference within one package needs no import, so
 * it is not seen, and needs not be.
 */
public final class PackageLayers {
  /** The key of the module's own package ({@code dev.benchlake.ingest} itself), beside its sub-packages. */
  public static final String ROOT = "(root)";

  /** {@code dev.benchlake.<module>.<package>…<Type>}: a reference in an import or in code. */
  private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.benchlake\\.([a-z]+)((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z]");

  private PackageLayers() {}

  /**
   * Checks the main sources of {@code module} against its table: the table knows every package,
   * every reference runs down it, none leaves for a {@code forbiddenModules}, and the table has no
   * cycle.
   *
   * @param owner a test class of the module
   * @param mayUse what each package may refer to in the module, besides itself (core and warehouse
   *     are always allowed)
   * @throws AssertionError saying what runs against the table
   */
  public static void check(Class<?> owner, String module, Map<String, Set<String>> mayUse,
      Set<String> forbiddenModules) throws IOException {
    Map<String, Set<String>> uses = references(owner, module, mayUse.keySet());
    Set<String> known = new TreeSet<>(mayUse.keySet());
    if (!uses.keySet().equals(known)) {
      throw new AssertionError("the table of " + module + " knows the packages " + known + ", its sources have "
          + uses.keySet());
    }
    List<String> wrong = againstTheLayers(uses, module, mayUse, forbiddenModules);
    if (!wrong.isEmpty()) {
      throw new AssertionError("references against the layers of " + module + "/README.md: " + wrong);
    }
    bottomUp(mayUse);
  }

  /**
   * Per package of {@code module} (its first segment below {@code dev.benchlake.<module>}, or
   * {@link #ROOT}), the packages its main sources name, as {@code module.package…}
   * ({@code warehouse.fs}, {@code ingest.format}, {@code ingest} for a module's own package).
   *
   * @param owner a test class of the module (where its sources are: see {@link ModuleDirs})
   */
  public static Map<String, Set<String>> references(Class<?> owner, String module) throws IOException {
    return references(owner, module, Set.of());
  }

  /**
   * {@link #references(Class, String)}, where a package named in {@code packages} ({@code study.duet})
   * is a layer of its own: a file belongs to the longest of them that holds it, else to its first
   * segment.
   */
  public static Map<String, Set<String>> references(Class<?> owner, String module, Set<String> packages)
      throws IOException {
    Path root = ModuleDirs.of(owner).resolve("src/main/java/dev/benchlake").resolve(module);
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        Path relative = root.relativize(file);
        String from = relative.getNameCount() == 1 ? ROOT
            : layerOf(relative.getParent().toString().replace(relative.getFileSystem().getSeparator(), "."), packages);
        Set<String> targets = uses.computeIfAbsent(from, k -> new TreeSet<>());
        Matcher m = REFERENCE.matcher(Files.readString(file, StandardCharsets.UTF_8));
        while (m.find()) {
          targets.add(m.group(1) + m.group(2));
        }
      }
    }
    return uses;
  }

  /**
   * The references that run against the layers: to a package of {@code module} that {@code mayUse}
   * does not allow its package, or to one of {@code forbiddenModules}; as {@code from -> to}.
   */
  public static List<String> againstTheLayers(Map<String, Set<String>> uses, String module,
      Map<String, Set<String>> mayUse, Set<String> forbiddenModules) {
    List<String> wrong = new ArrayList<>();
    uses.forEach((from, targets) -> {
      for (String to : targets) {
        String toModule = to.split("\\.")[0];
        if (forbiddenModules.contains(toModule)) {
          wrong.add(from + " -> dev.benchlake." + to);
        } else if (toModule.equals(module)) {
          String target = to.equals(module) ? ROOT : layerOf(to.substring(module.length() + 1), mayUse.keySet());
          if (!target.equals(from) && !mayUse.getOrDefault(from, Set.of()).contains(target)) {
            wrong.add(from + " -> " + target);
          }
        }
      }
    });
    return wrong;
  }

  /**
   * The layer of {@code pkg} (relative to its module, dotted): the longest of {@code layers} that is
   * it or holds it, else its first segment.
   */
  static String layerOf(String pkg, Set<String> layers) {
    String layer = pkg.split("\\.")[0];
    for (String candidate : layers) {
      if ((pkg.equals(candidate) || pkg.startsWith(candidate + ".")) && candidate.length() > layer.length()) {
        layer = candidate;
      }
    }
    return layer;
  }

  /**
   * The packages of a table in an order where each comes after all it may use: there is one
   * exactly when the table has no cycle.
   *
   * @throws AssertionError naming the packages left on a cycle
   */
  public static List<String> bottomUp(Map<String, Set<String>> mayUse) {
    List<String> order = new ArrayList<>();
    Map<String, Set<String>> left = new TreeMap<>(mayUse);
    while (!left.isEmpty()) {
      String next = left.entrySet().stream().filter(e -> order.containsAll(e.getValue())).map(Map.Entry::getKey)
          .findFirst().orElseThrow(() -> new AssertionError("a cycle among " + left.keySet()));
      order.add(next);
      left.remove(next);
    }
    return order;
  }
}
