package org.jspin.transport.shm;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jspin.bootstrap.InJvmExchange;
import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.Job;
import org.jspin.nic.fabric.Fabric;
import org.jspin.nic.fabric.FabricProvider;
import org.jspin.transport.netty.NettyFabricProvider;
import org.jspin.transport.netty.join.NettyLaunch;

/**
 * The {@code shm} fabric: ranks of one host connected through shared memory. A job started by a
 * launcher carries the launch attachment (secret, endpoint exchange) that the Netty fabric uses
 * too; a job without one is a job of threads in this JVM, which get a fresh secret and an in-JVM
 * exchange, so the same tests run through real shared-memory files with ranks as threads.
 * Rings live in {@code JSPIN_SHM_DIR} if set, else {@code /dev/shm}.
 */
public final class ShmFabricProvider implements FabricProvider {
    /** The name users select this fabric by. */
    public static final String NAME = "shm";

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
        return new ShmFabric(job.id(), job.size(), rank, launch.secret(), launch.exchange(), launch.connectTimeout(),
                directory(), ShmFabric.DEFAULT_CAPACITY);
    }

    /**
     * @return where rings are made: {@code JSPIN_SHM_DIR}, else {@code /dev/shm}
     * @throws MpiException ERR_OTHER when that is not a writable directory
     */
    static Path directory() {
        String set = System.getenv("JSPIN_SHM_DIR");
        Path dir = Path.of(set == null || set.isBlank() ? "/dev/shm" : set.strip());
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new MpiException(ErrorClass.ERR_OTHER, "the shm fabric's rings go in " + dir + ", which is not a"
                    + " writable directory" + (set == null ? " (set JSPIN_SHM_DIR to another)" : " (JSPIN_SHM_DIR)"));
        }
        return dir;
    }
}
