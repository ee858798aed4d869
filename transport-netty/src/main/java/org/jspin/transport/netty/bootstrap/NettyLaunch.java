package org.jspin.transport.netty.bootstrap;

import java.time.Duration;
import java.util.Objects;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;

/**
 * What the Netty fabric needs from whoever started the job, stored as a {@link org.jspin.nic.Job}
 * attachment under {@link #KEY}: the per-job secret every connection must present, how endpoints
 * are exchanged, the address to listen on, and how long to wait for peers.
 *
 * @param secret         shared by the ranks of the job and nobody else (at least 16 characters)
 * @param exchange       how ranks learn each other's endpoints
 * @param bindHost       the address to listen on ({@code 127.0.0.1} unless told otherwise)
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
        if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new MpiException(ErrorClass.ERR_ARG, "connect timeout must be positive, got " + connectTimeout);
        }
    }
}
