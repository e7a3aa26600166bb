package io.rill.util;

import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds resources in modules that are observable but were not resolved into the boot layer: a jar
 * on {@code --module-path} (or a module linked into a jlink image) that nothing {@code requires}.
 *
 * <p>Why: a jar that only carries a JNI library, such as netty-tcnative-boringssl-static, is a
 * module nobody requires, so the module system leaves it out of the graph and no class loader
 * sees its {@code META-INF/native/} files, although the user put it on the module path. Reading
 * the file through a {@link ModuleReader} needs no resolution, no flag and no reflection.
 */
final class UnresolvedModules {

    private UnresolvedModules() {
    }

    /**
     * Where {@code resource} is in an unresolved module, or empty; a module that cannot be read
     * counts as not having it, and the reason goes to {@code problems}.
     */
    static Optional<URL> findResource(String resource, List<String> problems) {
        return findResource(resource, System.getProperty("jdk.module.path"), problems);
    }

    /** As {@link #findResource(String, List)}, with the module path given (null: none). */
    static Optional<URL> findResource(String resource, String modulePath, List<String> problems) {
        for (ModuleReference module : observable(modulePath, problems)) {
            String name = module.descriptor().name();
            if (ModuleLayer.boot().findModule(name).isPresent()) {
                continue; // resolved: its class loader was already asked
            }
            try (ModuleReader reader = module.open()) {
                Optional<URI> uri = reader.find(resource);
                if (uri.isPresent()) {
                    return Optional.of(uri.get().toURL());
                }
            } catch (IOException | RuntimeException e) {
                problems.add("reading module " + name + " failed: " + e);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code name} is on the module path or in the run-time image but not in the boot layer. */
    static boolean isObservableButUnresolved(String name) {
        return isObservableButUnresolved(name, System.getProperty("jdk.module.path"));
    }

    /** As {@link #isObservableButUnresolved(String)}, with the module path given (null: none). */
    static boolean isObservableButUnresolved(String name, String modulePath) {
        return ModuleLayer.boot().findModule(name).isEmpty()
                && observable(modulePath, new ArrayList<>()).stream().anyMatch(m -> m.descriptor().name().equals(name));
    }

    private static List<ModuleReference> observable(String modulePath, List<String> problems) {
        List<ModuleReference> modules = new ArrayList<>();
        try {
            if (modulePath != null && !modulePath.isEmpty()) {
                String[] entries = modulePath.split(File.pathSeparator);
                Path[] paths = new Path[entries.length];
                for (int i = 0; i < entries.length; i++) {
                    paths[i] = Paths.get(entries[i]);
                }
                modules.addAll(ModuleFinder.of(paths).findAll());
            }
            // A jlink image holds the application's modules as system modules.
            modules.addAll(ModuleFinder.ofSystem().findAll());
        } catch (RuntimeException e) {
            problems.add("listing the module path " + modulePath + " failed: " + e);
        }
        return modules;
    }
}
