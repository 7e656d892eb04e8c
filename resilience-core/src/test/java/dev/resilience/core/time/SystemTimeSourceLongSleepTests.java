package dev.resilience.core.time;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A sleep longer than a {@code long} of nanoseconds, as a chaos latency of
 * {@code "300000d"} posted to {@code /actuator/chaos/{name}} asks for (the endpoint and
 * {@code ChaosSettings} accept it): the sleep is as long as the time source can wait, and
 * an interrupt ends it as the contract of {@link TimeSource#sleep} says. No wall-clock
 * wait: the thread is interrupted before the sleep starts.
 */
class SystemTimeSourceLongSleepTests {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void interruptedSleepLongerThanALongOfNanosThrowsInterruptedExceptionNotAnOverflow() {
        SystemTimeSource clock = SystemTimeSource.shared();
        Thread.currentThread().interrupt();

        assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> clock.sleep(Duration.ofDays(300_000)));
    }

}
