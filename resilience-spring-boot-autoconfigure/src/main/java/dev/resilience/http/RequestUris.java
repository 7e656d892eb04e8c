package dev.resilience.http;

import java.net.URI;
import java.util.Locale;

/**
 * What the interceptor reads from a request's URI, never with its user info or query: the
 * host a breaker is named after, and the description of the call.
 */
final class RequestUris {

    private RequestUris() {
    }

    /**
     * Returns the host of a URI in lower case, followed by {@code :} and the port when it
     * is given and is not the scheme's default.
     * @param uri the URI
     * @return the host
     */
    static String host(URI uri) {
        String host = (uri.getHost() != null) ? uri.getHost() : withoutUserInfo(String.valueOf(uri.getRawAuthority()));
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (port == 80 && "http".equalsIgnoreCase(uri.getScheme()))
                || (port == 443 && "https".equalsIgnoreCase(uri.getScheme()));
        return (defaultPort ? host : host + ":" + port).toLowerCase(Locale.ROOT);
    }

    /**
     * Returns a URI's scheme, authority without user info, and path.
     * @param uri the URI
     * @return the URI without user info, query and fragment
     */
    static String withoutUserInfoAndQuery(URI uri) {
        String path = uri.getRawPath();
        return uri.getScheme() + "://" + withoutUserInfo(String.valueOf(uri.getRawAuthority()))
                + ((path != null) ? path : "");
    }

    private static String withoutUserInfo(String authority) {
        return authority.substring(authority.lastIndexOf('@') + 1);
    }

}
