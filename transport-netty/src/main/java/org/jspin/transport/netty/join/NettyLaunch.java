package org.jspin.transport.netty.join;

import java.time.Duration;
import java.util.Objects;

import org.jspin.bootstrap.EndpointExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What the Netty fabric needs from whoever started the job, stored as a {@link org.jspin.nic.Job}
 * attachment under {@link #KEY}: the per-job secret every connection must present, how endpoints
 * are exchanged, the address to listen on, and how long to wait for peers.
 *
 * @param secret         shared by the ranks of the job and nobody else (at least 16 characters)
 * @param exchange       how ranks learn each other's endpoints
 * @param bindHost       the address to listen on ({@code 127.0.0.1} unless told otherwise), with or
 *                       without a port: {@code host}, {@code host:port}, {@code [v6]} or
 *                       {@code [v6]:port} (a bare IPv6 literal has no port). Without a port (or with
 *                       port 0) each rank listens on any free port; with one, rank r listens on
 *                       port + r, so that a firewall can open a known range
 * @param connectTimeout how long start-up waits for the exchange and for every peer's connection
 */
public record NettyLaunch(String secret, EndpointExchange exchange, String bindHost, Duration connectTimeout) {
    /** The job attachment key. */
    public static final String KEY = "jspin.netty.launch";
    /** Where ranks listen when nothing says otherwise: loopback only. */
    public static final String LOOPBACK = "127.0.0.1";
    /** Start-up wait when nothing says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /** @throws MpiException ERR_ARG for a missing or short secret, a null exchange or host, a non-positive timeout */
    public NettyLaunch {
        if (secret == null || secret.length() < 16) {
            throw new MpiException(ErrorClass.ERR_ARG, "the job secret must have at least 16 characters, got "
                    + (secret == null ? "none" : secret.length()));
        }
        Objects.requireNonNull(exchange, "exchange");
        if (bindHost == null || bindHost.isBlank()) {
            throw new MpiException(ErrorClass.ERR_ARG, "bind host must not be blank, got '" + bindHost + "'");
        }
        split(bindHost); // a malformed address fails here, before anything listens
        if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "connect timeout must be positive, got " + connectTimeout);
        }
    }

    /** @return the host of {@link #bindHost} (an IPv6 literal without brackets) */
    public String listenHost() {
        return split(bindHost)[0];
    }

    /** @return the port of {@link #bindHost}: rank r listens on this plus r; 0 if none was given (any free port) */
    public int basePort() {
        return Integer.parseInt(split(bindHost)[1]);
    }

    /** @return {host, port} of a bind address, the port "0" when it has none */
    private static String[] split(String bindHost) {
        String s = bindHost.strip();
        String host;
        String port;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0 || (close + 1 < s.length() && s.charAt(close + 1) != ':')) {
                throw badBind(bindHost);
            }
            host = s.substring(1, close);
            port = close + 1 < s.length() ? s.substring(close + 2) : "0";
        } else {
            int colon = s.indexOf(':');
            boolean bareV6 = colon >= 0 && s.indexOf(':', colon + 1) >= 0;
            host = colon < 0 || bareV6 ? s : s.substring(0, colon);
            port = colon < 0 || bareV6 ? "0" : s.substring(colon + 1);
        }
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (host.isBlank() || p < 0 || p > 65535) {
            throw badBind(bindHost);
        }
        return new String[] {host, Integer.toString(p)};
    }

    private static MpiException badBind(String bindHost) {
        return new MpiException(ErrorClass.ERR_ARG, "the bind address (JSPIN_BIND) must be host or host:port with a"
                + " port in [0, 65535] ([v6] or [v6]:port for IPv6), got '" + bindHost + "'");
    }
}
