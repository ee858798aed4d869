package org.jspin.transport.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import org.jspin.bootstrap.InJvmExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.FabricProvider;
import org.jspin.settings.Setting;
import org.jspin.settings.Settings;
import org.jspin.transport.netty.NettyFabricProvider;
import org.jspin.transport.netty.join.LaunchEnvironment;
import org.jspin.transport.netty.join.NettyLaunch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code shm} fabric: ranks of one host connected through shared memory, and in a job that
 * spans hosts, ranks of other hosts over TCP ({@link HybridFabric}). A job started by a launcher
 * carries the launch attachment (secret, endpoint exchange) that the Netty fabric uses too, and
 * says under {@link LaunchEnvironment#ONE_HOST} whether the launcher put every rank on this host; a job without a
 * launch is a job of threads in this JVM, which get a fresh secret and an in-JVM exchange, so the
 * same tests run through real shared-memory files with ranks as threads. Rings live in
 * {@code JSPIN_SHM_DIR} if set, else {@code /dev/shm}.
 */
public final class ShmFabricProvider implements FabricProvider {
    private static final Logger LOG = LoggerFactory.getLogger(ShmFabricProvider.class);

    /** The name users select this fabric by. */
    public static final String NAME = "shm";
    /** {@code -Djspin.shm.dir} or {@code JSPIN_SHM_DIR}: where rings are made. */
    public static final Setting<String> RING_DIRECTORY = Setting.text("jspin.shm.dir", "/dev/shm",
            "the directory the shm fabric makes its rings in (memory-backed, writable by the user)").orEnvironment("JSPIN_SHM_DIR");
    /** Every setting of this layer, for {@code jspin config}. */
    public static final List<Setting<?>> ALL = List.of(RING_DIRECTORY);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Fabric open(Job job, int rank) {
        if (!Futex.supported()) {
            throw new MpiException(ErrorClass.ERR_OTHER, "the shm fabric needs Linux on x86-64 (this is "
                    + System.getProperty("os.name") + " on " + System.getProperty("os.arch") + "); use --fabric netty");
        }
        NettyLaunch launch = job.attachment(NettyLaunch.KEY, NettyLaunch.class,
                () -> new NettyLaunch(NettyFabricProvider.newSecret(), new InJvmExchange(job.size()),
                        NettyLaunch.LOOPBACK, NettyLaunch.DEFAULT_TIMEOUT));
        Path dir = directory();
        if (job.attachment(LaunchEnvironment.ONE_HOST, Boolean.class, () -> Boolean.TRUE)) {
            return ShmFabric.join(job.id(), job.size(), rank, launch.secret(), launch.exchange(),
                    launch.connectTimeout(), dir, ShmFabric.DEFAULT_CAPACITY);
        }
        return acrossHosts(job.id(), job.size(), rank, launch, dir, HostIdentity.of(dir));
    }

    /**
     * Joins a job that may span hosts: this rank's ring, then the TCP fabric, whose one exchange
     * carries the ring and the host's key too ({@link HostExchange}); rings to the ranks whose key
     * is this rank's, TCP to the others. All on one host, it is the shm fabric alone (the TCP one
     * closes at once); alone on its host, the TCP one alone.
     *
     * @param hostKey this rank's {@link HostIdentity} (tests give ranks of one machine different ones)
     */
    static Fabric acrossHosts(String jobId, int size, int rank, NettyLaunch launch, Path dir, String hostKey) {
        RingFile own;
        try {
            own = ShmFabric.create(dir, rank, size, ShmFabric.DEFAULT_CAPACITY);
        } catch (MpiException e) {
            LOG.warn("rank {}: no shared memory ({}); every peer is reached over TCP", rank, e.getMessage());
            own = null; // the exchange says so, and this host's other ranks reach it over TCP too
        }
        HostExchange hosts = new HostExchange(launch.exchange(), hostKey, own == null ? null : own.path().toString());
        Fabric tcp;
        try {
            tcp = NettyFabricProvider.open(jobId, size, rank,
                    new NettyLaunch(launch.secret(), hosts, launch.bindHost(), launch.connectTimeout()));
        } catch (RuntimeException e) {
            if (own != null) {
                own.unlink();
                own.close();
            }
            throw e;
        }
        List<String> rings = hosts.rings();
        boolean sharesHost = rings.stream().anyMatch(Objects::nonNull);
        boolean spansHosts = false;
        for (int r = 0; r < size; r++) {
            spansHosts |= r != rank && rings.get(r) == null;
        }
        if (!sharesHost) {
            if (own != null) {
                own.unlink();
                own.close();
            }
            return tcp;
        }
        if (!spansHosts) {
            hosts.keepInnerOpen();
            tcp.close();
            return new ShmFabric(jobId, size, rank, launch.secret(), own, rings, ShmFabric.DEFAULT_CAPACITY,
                    launch.exchange());
        }
        ShmFabric shm;
        try {
            shm = new ShmFabric(jobId, size, rank, launch.secret(), own, rings, ShmFabric.DEFAULT_CAPACITY, null);
        } catch (RuntimeException e) {
            tcp.close();
            throw e;
        }
        return new HybridFabric(shm, tcp);
    }

    /**
     * @return where rings are made: {@link #RING_DIRECTORY}
     * @throws MpiException ERR_OTHER when that is not a writable directory
     */
    static Path directory() {
        Settings.Effective<String> set = Settings.current().effective(RING_DIRECTORY);
        Path dir = Path.of(set.value());
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new MpiException(ErrorClass.ERR_OTHER, "the shm fabric's rings go in " + dir + ", which is not a"
                    + " writable directory" + (set.origin() == Settings.Origin.DEFAULT ? " (set JSPIN_SHM_DIR to another)"
                    : " (" + RING_DIRECTORY + ")"));
        }
        return dir;
    }
}
