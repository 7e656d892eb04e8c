package dev.resilience.core.fallback;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import dev.resilience.core.ResiliencePipeline;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Source written against {@code dev.resilience.core.fallback} before its types moved to
 * {@code dev.resilience.core} still compiles and behaves, as the package's Javadoc
 * promises, but for the two uses it names.
 */
@SuppressWarnings("removal")
class DeprecatedFallbackSourceTests {

    @TempDir
    Path dir;

    @Test
    void sourceImportingTheDeprecatedFallbackFunctionCompiles() throws Exception {
        String errors = compile("""
                package demo;

                import dev.resilience.core.fallback.FallbackHandler;
                import dev.resilience.core.fallback.FallbackHandler.FallbackFunction;

                class Defer {
                    static final FallbackFunction DEFER = (error, call) -> "deferred";
                    static final FallbackHandler HANDLER = FallbackHandler.of("defer", DEFER);
                }
                """);

        assertThat(errors).as("javac errors").isEmpty();
    }

    @Test
    void handlersMadeByTheDeprecatedFactoryAreEqualAsTheyWereBefore() {
        FallbackHandler.FallbackFunction defer = (error, call) -> "deferred";

        assertThat(FallbackHandler.of("defer", IOException.class, defer))
            .as("a record, equal by name, type and function, as before the move")
            .isEqualTo(FallbackHandler.of("defer", IOException.class, defer));
        assertThat(FallbackChain.of(FallbackHandler.of("defer", defer)))
            .isEqualTo(FallbackChain.of(FallbackHandler.of("defer", defer)));
    }

    private String compile(String source) throws IOException, URISyntaxException {
        Path file = this.dir.resolve("src/demo/Source.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source.replaceFirst("class (\\w+)", "class Source"));
        Path out = Files.createDirectories(this.dir.resolve("out"));
        String classpath = location(ResiliencePipeline.class) + File.pathSeparator + location(Nullable.class);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        var files = javac.getStandardFileManager(null, null, null);
        boolean compiled = javac
            .getTask(diagnostics, files, null, List.of("-proc:none", "-nowarn", "-cp", classpath, "-d", out.toString()),
                    null, files.getJavaFileObjects(file))
            .call();
        return compiled ? "" : diagnostics.toString();
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

}
