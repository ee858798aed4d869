package org.jspin.transport.netty;

import java.security.SecureRandom;
import java.util.HexFormat;

import org.jspin.nic.Job;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.FabricProvider;
import org.jspin.bootstrap.InJvmExchange;
import org.jspin.settings.Settings;
import org.jspin.transport.netty.join.NettyLaunch;

/**
 * The {@code netty} fabric: ranks connected by TCP. A job started by a launcher carries a
 * {@link NettyLaunch} attachment (secret, endpoint exchange, bind address); a job without one is
 * a job of threads in this JVM, which get a fresh secret and an in-JVM exchange, so the same tests
 * run over real sockets with ranks as threads.
 */
public final class NettyFabricProvider implements FabricProvider {
    /** The name users select this fabric by. */
    public static final String NAME = "netty";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Fabric open(Job job, int rank) {
        NettyLaunch launch = job.attachment(NettyLaunch.KEY, NettyLaunch.class,
                () -> new NettyLaunch(newSecret(), new InJvmExchange(job.size()), NettyLaunch.LOOPBACK,
                        NettyLaunch.DEFAULT_TIMEOUT));
        return new NettyFabric(job.id(), job.size(), rank, launch);
    }

    /**
     * Opens rank {@code rank}'s endpoint of a TCP fabric that reaches only the ranks the launch's
     * exchange gives an endpoint for: a fabric that carries the other ranks' packets (shared memory
     * within a host) gives the exchange's null for each of those, and sends them nothing here.
     *
     * @param jobId  the job's id, proven on every connection with the launch's secret
     * @param size   ranks in the job
     * @param rank   this endpoint's world rank
     * @param launch the secret, the exchange (whose list may hold nulls), where to listen
     * @return the joined endpoint; packets to a rank without a connection fail with ERR_OTHER
     * @throws org.jspin.error.MpiException ERR_OTHER naming what failed while joining
     */
    public static Fabric open(String jobId, int size, int rank, NettyLaunch launch) {
        return new NettyFabric(jobId, size, rank, launch);
    }

    /**
     * @return the TCP congestion control this JVM's setting ({@code -Djspin.netty.congestion}) gives
     *         connections between ranks of one host: an algorithm's name, or {@code system} for the
     *         kernel's default
     * @throws org.jspin.error.MpiException ERR_ARG naming the setting if joining would refuse it
     */
    public static String congestionWithinHost() {
        String name = NettySettings.from(Settings.current()).congestionControl().name();
        return name == null ? CongestionControl.SYSTEM : name;
    }

    /** @return a fresh random job secret (32 hex digits from a {@link SecureRandom}) */
    public static String newSecret() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
