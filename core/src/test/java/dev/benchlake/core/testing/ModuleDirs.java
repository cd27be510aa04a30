package dev.benchlake.core.testing;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The module of a test class, from where Maven built it ({@code MODULE/target/test-classes}):
 * independent of the working directory, which differs between an IDE, a module build and a
 * reactor build.
 */
public final class ModuleDirs {
  private ModuleDirs() {}

  public static Path of(Class<?> owner) {
    Path classes;
    try {
      classes = Path.of(owner.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("cannot tell where " + owner.getName() + " was loaded from", e);
    }
    if (!Files.isDirectory(classes) || !classes.getFileName().toString().equals("test-classes")
        || classes.getParent() == null || !classes.getParent().getFileName().toString().equals("target")) {
      throw new IllegalStateException(owner.getName() + " was not loaded from MODULE/target/test-classes but from "
          + classes + ": run it from its own module's build");
    }
    return classes.getParent().getParent();
  }

  /** The repository root: the parent of every module. */
  public static Path repository(Class<?> owner) {
    return of(owner).getParent();
  }
}
