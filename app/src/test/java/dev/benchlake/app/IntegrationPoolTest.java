package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.IntegrationTest;
import dev.benchlake.core.testing.ModuleDirs;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * app's failsafe pool (app/pom.xml) runs the classes tagged {@value IntegrationTest#TAG}, the
 * {@code *IT} classes and the integration tier's {@code *Test} classes together in two JVMs: an
 * {@code *IT} class without the tag would run nowhere, silently. Every one carries it (on itself, on
 * a superclass, or through core's {@link IntegrationTest}).
 */
class IntegrationPoolTest {
  @Test
  void everyItClassIsTaggedIntegration() throws IOException, ClassNotFoundException {
    Path sources = ModuleDirs.of(IntegrationPoolTest.class).resolve("src/test/java");
    List<String> its;
    try (Stream<Path> files = Files.walk(sources)) {
      its = files.map(f -> sources.relativize(f).toString()).filter(f -> f.endsWith("IT.java"))
          .map(f -> f.substring(0, f.length() - ".java".length()).replace('/', '.')).sorted().toList();
    }
    assertThat(its).as("app's *IT classes").contains("dev.benchlake.app.QuickstartIT");
    List<String> untagged = new ArrayList<>();
    for (String name : its) {
      // Not initialised: a class's static set-up is no business of this check.
      if (!tagged(Class.forName(name, false, IntegrationPoolTest.class.getClassLoader()))) {
        untagged.add(name);
      }
    }
    assertThat(untagged).as("*IT classes without @Tag(\"%s\")", IntegrationTest.TAG).isEmpty();
  }

  /** Whether JUnit would see the tag on the class: {@code @Tag} is inherited, and may come through an annotation. */
  static boolean tagged(Class<?> type) {
    if (Arrays.stream(type.getAnnotationsByType(Tag.class)).anyMatch(t -> t.value().equals(IntegrationTest.TAG))) {
      return true;
    }
    for (Annotation a : type.getAnnotations()) {
      if (Arrays.stream(a.annotationType().getAnnotationsByType(Tag.class))
          .anyMatch(t -> t.value().equals(IntegrationTest.TAG))) {
        return true;
      }
    }
    return false;
  }
}
