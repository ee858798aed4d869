package org.jspin.nic.launch;

import java.util.Map;
import java.util.Optional;

import org.jspin.error.MpiException;

/**
 * Recognises the environment a launcher gives its processes ({@code jspin run}, Hydra's
 * {@code mpiexec}, Slurm's {@code srun}, Open MPI's {@code mpirun}) and turns it into the job this
 * process is a rank of. Found through {@link java.util.ServiceLoader}; {@link Launches} asks each.
 */
public interface LaunchProvider {
    /** @return a name for messages */
    String name();

    /**
     * @param env the process environment
     * @return this process's place in its job, or empty if no launcher this provider knows started it
     * @throws MpiException ERR_OTHER when a launcher did start it but its variables are inconsistent
     *                      or the bootstrap fails: a rank of a larger job never carries on alone
     */
    Optional<Launched> detect(Map<String, String> env);
}
