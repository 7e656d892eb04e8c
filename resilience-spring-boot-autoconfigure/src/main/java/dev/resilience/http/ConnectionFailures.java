package dev.resilience.http;

import java.io.IOException;
import java.util.Set;

/**
 * Tells the failures of a connection apart from other errors of an attempt: an
 * {@link IOException}, and the exceptions of Reactor Netty, the {@code WebClient}'s
 * default connector, that stand for one but are unchecked: its read and write timeouts
 * ({@code io.netty.handler.timeout.ReadTimeoutException} and
 * {@code WriteTimeoutException}, raised by a {@code responseTimeout}) and a connection
 * closed under the request ({@code reactor.netty.channel.AbortedException}; its
 * {@code PrematureCloseException} is an {@code IOException}). A {@code RestClient} over
 * Reactor Netty gets all of them as {@code IOException}s, which Spring's request converts
 * them to; a {@code WebClient} gets them as the cause of a
 * {@code WebClientRequestException}. Reactor Netty's exceptions are known by their class
 * names, so Reactor Netty stays optional.
 */
final class ConnectionFailures {

    private static final Set<String> REACTOR_NETTY_FAILURES = Set.of("io.netty.handler.timeout.TimeoutException",
            "reactor.netty.channel.AbortedException");

    private ConnectionFailures() {
    }

    /**
     * Tells whether an error is a failure of the connection, or is caused by one.
     * @param error the error of an attempt
     * @return {@code true} when the error or its cause is an {@link IOException} or one
     * of Reactor Netty's failures of a connection
     */
    static boolean isConnectionFailure(Throwable error) {
        Throwable cause = error.getCause();
        return isOne(error) || (cause != null && isOne(cause));
    }

    private static boolean isOne(Throwable error) {
        if (error instanceof IOException) {
            return true;
        }
        for (Class<?> type = error.getClass(); type != null
                && type != RuntimeException.class; type = type.getSuperclass()) {
            if (REACTOR_NETTY_FAILURES.contains(type.getName())) {
                return true;
            }
        }
        return false;
    }

}
