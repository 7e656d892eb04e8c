package dev.resilience.core.support;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExceptionFilterTests {

    @Test
    void emptyListsLetEveryErrorThrough() {
        assertThat(ExceptionFilter.matches(new IOException(), List.of(), List.of())).isTrue();
        assertThat(ExceptionFilter.matches(new Error(), List.of(), List.of())).isTrue();
    }

    @Test
    void includedTypesMatchTheirSubclassesAndNothingElse() {
        List<Class<? extends Throwable>> includes = List.of(IOException.class, TimeoutException.class);
        assertThat(ExceptionFilter.matches(new FileNotFoundException(), includes, List.of())).isTrue();
        assertThat(ExceptionFilter.matches(new TimeoutException(), includes, List.of())).isTrue();
        assertThat(ExceptionFilter.matches(new UncheckedIOException(new IOException()), includes, List.of())).isFalse();
    }

    @Test
    void excludedTypeWinsOverAnIncludedOne() {
        List<Class<? extends Throwable>> includes = List.of(IOException.class);
        List<Class<? extends Throwable>> excludes = List.of(FileNotFoundException.class);
        assertThat(ExceptionFilter.matches(new FileNotFoundException(), includes, excludes)).isFalse();
        assertThat(ExceptionFilter.matches(new IOException(), includes, excludes)).isTrue();
    }

    @Test
    void excludedTypeAloneLetsEveryOtherErrorThrough() {
        List<Class<? extends Throwable>> excludes = List.of(IllegalArgumentException.class);
        assertThat(ExceptionFilter.matches(new NumberFormatException(), List.of(), excludes)).isFalse();
        assertThat(ExceptionFilter.matches(new IllegalStateException(), List.of(), excludes)).isTrue();
    }

    @Test
    void instanceOfAnyIsFalseForAnEmptyList() {
        assertThat(ExceptionFilter.isInstanceOfAny(new RuntimeException(), List.of())).isFalse();
        assertThat(ExceptionFilter.isInstanceOfAny(new IllegalStateException(), List.of(RuntimeException.class)))
            .isTrue();
    }

}
