package dev.resilience.http;

import java.io.IOException;
import java.net.URI;

import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.handler.timeout.WriteTimeoutException;
import org.junit.jupiter.api.Test;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.PrematureCloseException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.WebClientRequestException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which errors of an attempt are failures of the connection: I/O errors, and Reactor
 * Netty's unchecked timeouts and aborted connections, alone or as the cause of the
 * {@code WebClientRequestException} a {@code WebClient} wraps them in.
 */
class ConnectionFailuresTests {

    @Test
    void reactorNettysTimeoutsAndClosedConnectionsAreConnectionFailures() {
        assertThat(ReadTimeoutException.INSTANCE).matches(ConnectionFailures::isConnectionFailure);
        assertThat(WriteTimeoutException.INSTANCE).matches(ConnectionFailures::isConnectionFailure);
        assertThat(new AbortedException("Connection has been closed")).matches(ConnectionFailures::isConnectionFailure);
        assertThat(PrematureCloseException.TEST_EXCEPTION).matches(ConnectionFailures::isConnectionFailure);
    }

    @Test
    void reactorNettysFailuresWrappedByTheWebClientAreConnectionFailures() {
        assertThat(wrapped(ReadTimeoutException.INSTANCE)).matches(ConnectionFailures::isConnectionFailure);
        assertThat(wrapped(new AbortedException("Connection has been closed BEFORE send operation")))
            .matches(ConnectionFailures::isConnectionFailure);
        assertThat(wrapped(PrematureCloseException.TEST_EXCEPTION)).matches(ConnectionFailures::isConnectionFailure);
    }

    @Test
    void ioErrorsAloneOrAsTheCauseAreConnectionFailures() {
        assertThat(new IOException("reset")).matches(ConnectionFailures::isConnectionFailure);
        assertThat(new IllegalStateException(new IOException("reset")))
            .matches(ConnectionFailures::isConnectionFailure);
    }

    @Test
    void otherErrorsAreNot() {
        assertThat(new IllegalStateException("no connector"))
            .matches((error) -> !ConnectionFailures.isConnectionFailure(error));
        assertThat(wrapped(new IllegalArgumentException("bad header")))
            .matches((error) -> !ConnectionFailures.isConnectionFailure(error));
        assertThat(new Exception("checked")).matches((error) -> !ConnectionFailures.isConnectionFailure(error));
    }

    private static WebClientRequestException wrapped(Throwable cause) {
        return new WebClientRequestException(cause, HttpMethod.GET, URI.create("http://127.0.0.1/prices"),
                new HttpHeaders());
    }

}
