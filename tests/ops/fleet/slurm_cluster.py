"""A one-node Slurm cluster made by a test on this machine, in a temp dir.

munged with a key generated here, slurmctld and slurmd with a slurm.conf
written here (ports picked free, state and logs in the temp dir, the
partition "qipu" with CPUS cpus, proctrack/linuxproc and task/none, which
need no cgroup setup). Clients find it through SLURM_CONF in `env`.

Root is needed: slurmd starts each job as its owner (setuid), which only
root can. Nothing outside the temp dir is written; /etc/slurm and
/etc/munge are not read (except /etc/slurm/plugstack.conf's absence is
avoided by an empty one here).

stop() cancels every job, waits for them to end, stops the daemons and
kills -- by process id -- anything still carrying this cluster's
SLURM_CONF in its environment (job steps, the workers they started).
"""

import os
import signal
import socket
import subprocess
import time

import fleet_testing as ft


class SlurmCluster:

    def __init__(self, root, cpus=4):
        self.root = root
        self.cpus = cpus
        self.node = "qipunode"
        self.conf = os.path.join(root, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self._daemons = []  # (name, Popen)

    def path(self, *parts):
        return os.path.join(self.root, *parts)

    def start(self, timeout=60):
        munged = ft.need_program("munged", "munge")
        ft.need_program("munge", "munge")
        slurmctld = ft.need_program("slurmctld", "slurm-wlm")
        slurmd = ft.need_program("slurmd", "slurm-wlm")
        ft.need_program("sbatch", "slurm-wlm")
        for d in ("munge", "state", "slurmd", "log"):
            os.makedirs(self.path(d), exist_ok=True)
        os.chmod(self.root, 0o755)
        os.chmod(self.path("munge"), 0o700)
        key = self.path("munge", "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        self.munge_socket = self.path("munge", "socket")
        # munged refuses to run as root without --force; -F: foreground,
        # so that it is our child and we can stop it by its pid.
        self._spawn("munged", [
            munged, "-F", "--force", "-S", self.munge_socket,
            "--key-file=" + key, "--log-file=" + self.path("munge", "log"),
            "--pid-file=" + self.path("munge", "pid"),
            "--seed-file=" + self.path("munge", "seed")])
        ft.wait_for(lambda: self._munge_ok(), timeout,
                    lambda: "munged to answer:\n" + self._tail("munge/log"))
        self._write_conf()
        self._spawn("slurmctld", [slurmctld, "-D", "-i", "-f", self.conf])
        self._spawn("slurmd", [slurmd, "-D", "-N", self.node, "-f",
                               self.conf])
        ft.wait_for(lambda: self._node_idle(), timeout,
                    lambda: "the Slurm node to be idle:\n" + self.logs())
        return self

    def _spawn(self, name, cmd):
        out = open(self.path("log", name + ".out"), "w")
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                             env=self.env)
        out.close()
        self._daemons.append((name, p))

    def _munge_ok(self):
        p = subprocess.run(["munge", "-n", "-S", self.munge_socket],
                           capture_output=True)
        return p.returncode == 0

    def _write_conf(self):
        ctld_port = ft.free_port()
        slurmd_port = ft.free_port()
        while slurmd_port == ctld_port:
            slurmd_port = ft.free_port()
        with open(self.path("plugstack.conf"), "w"):
            pass
        lines = [
            "ClusterName=qiputest",
            # The controller's name must be this host's short name.
            f"SlurmctldHost={socket.gethostname().split('.')[0]}(127.0.0.1)",
            f"SlurmctldPort={ctld_port}",
            f"SlurmdPort={slurmd_port}",
            "SlurmUser=root",
            "SlurmdUser=root",
            f"StateSaveLocation={self.path('state')}",
            f"SlurmdSpoolDir={self.path('slurmd')}",
            f"SlurmctldPidFile={self.path('slurmctld.pid')}",
            f"SlurmdPidFile={self.path('slurmd.pid')}",
            f"SlurmctldLogFile={self.path('log', 'slurmctld.log')}",
            f"SlurmdLogFile={self.path('log', 'slurmd.log')}",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={self.munge_socket}",
            f"PlugStackConfig={self.path('plugstack.conf')}",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "SchedulerType=sched/backfill",
            # The node may declare more CPUs than this machine has.
            "SlurmdParameters=config_overrides",
            "ReturnToService=2",
            "MpiDefault=none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "SwitchType=switch/none",
            "MailProg=/bin/true",
            # Seconds between a job's SIGTERM and its SIGKILL.
            "KillWait=30",
            "SchedulerParameters=sched_interval=1",
            f"NodeName={self.node} NodeAddr=127.0.0.1 "
            f"NodeHostname={socket.gethostname()} CPUs={self.cpus} "
            "RealMemory=1000 State=UNKNOWN",
            "PartitionName=qipu Nodes=ALL Default=YES MaxTime=INFINITE "
            "State=UP",
        ]
        with open(self.conf, "w") as f:
            f.write("\n".join(lines) + "\n")

    def _node_idle(self):
        p = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"],
                           capture_output=True, text=True, env=self.env)
        return p.returncode == 0 and p.stdout.strip() == "idle"

    def sbatch(self, args, env=None, timeout=30):
        """`sbatch --parsable args...` with `env` added to the environment
        the job inherits; the job id."""
        p = ft.run(["sbatch", "--parsable"] + list(args), timeout=timeout,
                   env=dict(self.env, **(env or {})))
        return p.stdout.strip().split(";")[0]

    def scancel(self, job_id):
        ft.run(["scancel", job_id], env=self.env)

    def jobs(self):
        """{job id ("12_3" for array tasks): state} of the jobs Slurm still
        lists (pending, running, completing)."""
        p = ft.run(["squeue", "-h", "-r", "-o", "%i %T"], env=self.env)
        return dict(l.split() for l in p.stdout.splitlines() if l.strip())

    def logs(self, chars=3000):
        out = []
        for name in ("log/slurmctld.log", "log/slurmd.log",
                     "log/slurmctld.out", "log/slurmd.out"):
            out.append(f"--- {name}\n{self._tail(name, chars)}")
        return "\n".join(out)

    def _tail(self, rel, chars=3000):
        try:
            with open(self.path(rel), errors="replace") as f:
                return f.read()[-chars:]
        except OSError:
            return "(none)"

    def stop(self, timeout=60):
        """Cancels every job and waits for them to end, then stops the
        daemons; kills what is left of this cluster's processes."""
        if any(n == "slurmctld" for n, p in self._daemons
               if p.poll() is None):
            subprocess.run(["scancel", "--partition", "qipu"], env=self.env,
                           capture_output=True, timeout=30)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                try:
                    if not self.jobs():
                        break
                except Exception:  # The controller went away: kill below.
                    break
                time.sleep(0.1)  # Polling the job list.
        for name, p in reversed(self._daemons):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        self._daemons = []
        self._kill_leftovers()

    def _kill_leftovers(self):
        """SIGKILL, by pid, every process whose environment names this
        cluster's slurm.conf: job steps (slurmstepd) and what they ran."""
        marker = ("SLURM_CONF=" + self.conf).encode()
        me = os.getpid()
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == me:
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    env = f.read().split(b"\0")
            except OSError:
                continue
            if marker in env:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except OSError:
                    pass
