"""A small network of "hosts" made by a test: Linux network namespaces on
one bridge, with packet loss and cut-offs by nftables.

NetnsLab(tag).start(hosts) makes one namespace for the bridge and one per
host, all named "<tag>-<name>" (the tag carries the test's pid, so runs in
parallel cannot clash); each host gets eth0, one end of a veth pair whose
other end is a port of bridge br0, with its own address in 10.213.0.0/24
(only inside these namespaces: the root namespace gets no address, route
or rule). drop(host, percent) adds nftables rules in the host's namespace
that drop that share of its packets, in and out (`numgen random mod 100`,
as there is no netem qdisc on every kernel); cut(host) drops all of them
until restore(host). entered(host) runs the calling thread, and every
process it starts, inside a host's namespace. stop() removes everything it
made, and is safe to call twice or after a failed start().

Needs root and Debian's iproute2 (`ip`) and nftables (`nft`); start()
skips the test with the reason when they are missing or the kernel refuses
namespaces, veth pairs, bridges or nftables.
"""

import contextlib
import ctypes
import os
import re
import subprocess

import pytest

import fleet_testing as ft

SUBNET = "10.213.0"
_CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


def _setns(fd):
    if _libc.setns(fd, _CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")


class NetnsLab:

    def __init__(self, tag):
        self.tag = tag
        self.bridge_ns = f"{tag}-br"
        self._hosts = {}  # name -> (namespace, address)
        self._made = []  # namespaces made, in order

    def start(self, hosts):
        if os.geteuid() != 0:
            pytest.skip("needs root: network namespaces, veth pairs, a "
                        "bridge and nftables rules; CI runs the tests as "
                        "root")
        self.ip = ft.need_program("ip", "iproute2")
        self.nft = ft.need_program("nft", "nftables")
        self._sweep_stale()
        self._add_ns(self.bridge_ns, skip_on_error=True)
        self._ip(self.bridge_ns, "link", "add", "br0", "type", "bridge",
                 skip_on_error=True)
        self._ip(self.bridge_ns, "link", "set", "br0", "up")
        for i, name in enumerate(hosts):
            ns = f"{self.tag}-{name}"
            address = f"{SUBNET}.{i + 1}"
            self._add_ns(ns)
            port = f"p{i}"
            self._ip(self.bridge_ns, "link", "add", port, "type", "veth",
                     "peer", "name", "eth0", "netns", ns,
                     skip_on_error=True)
            self._ip(self.bridge_ns, "link", "set", port, "master", "br0",
                     "up")
            self._ip(ns, "addr", "add", f"{address}/24", "dev", "eth0")
            self._ip(ns, "link", "set", "eth0", "up")
            self._ip(ns, "link", "set", "lo", "up")
            self._hosts[name] = (ns, address)
        # nftables usable in a namespace (a kernel without nf_tables skips).
        self._nft(hosts[0], "add", "table", "inet", "qipu_probe",
                  skip_on_error=True)
        self._nft(hosts[0], "delete", "table", "inet", "qipu_probe")
        return self

    def namespace(self, host):
        return self._hosts[host][0]

    def address(self, host):
        return self._hosts[host][1]

    def prefix(self, host):
        """The command prefix that runs a program inside `host`."""
        return [self.ip, "netns", "exec", self.namespace(host)]

    def drop(self, host, percent):
        """Drops `percent`% of `host`'s packets, in and out (not loopback),
        each packet independently."""
        self._chains(host, "qipu_loss",
                     f"numgen random mod 100 < {int(percent)} drop")

    def cut(self, host):
        """Drops every packet of `host` (not loopback) until restore()."""
        self._chains(host, "qipu_cut", "drop")

    def restore(self, host):
        self._nft(host, "delete", "table", "inet", "qipu_cut")

    def dropped(self, host, table):
        """Packets dropped so far by `table`'s rules in `host` (their
        counters)."""
        out = self._nft(host, "list", "table", "inet", table)
        return sum(int(n) for n in re.findall(r"packets (\d+)", out))

    def tc_netem_available(self, host):
        """Whether this kernel has the netem qdisc (probed on `host`'s lo;
        removed again when it was added)."""
        tc = ft.need_program("tc", "iproute2")
        ns = self.namespace(host)
        p = subprocess.run([self.ip, "netns", "exec", ns, tc, "qdisc", "add",
                            "dev", "lo", "root", "netem", "delay", "1ms"],
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 0:
            return False
        subprocess.run([self.ip, "netns", "exec", ns, tc, "qdisc", "del",
                        "dev", "lo", "root"], capture_output=True, timeout=30)
        return True

    @contextlib.contextmanager
    def entered(self, host):
        """The calling thread (and each process it starts meanwhile) inside
        `host`'s namespace; back in its own on leaving, even on error."""
        own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        try:
            target = os.open(f"/run/netns/{self.namespace(host)}",
                             os.O_RDONLY)
            try:
                _setns(target)
                try:
                    yield
                finally:
                    _setns(own)
            finally:
                os.close(target)
        finally:
            os.close(own)

    def stop(self):
        """Removes the namespaces (with their veth pairs, bridge and rules).
        Links are deleted first: a namespace still held by a thread or
        process (say, one of gRPC's) outlives its name otherwise."""
        errors = []
        for ns in reversed(self._made):
            if ns != self.bridge_ns:
                subprocess.run([self.ip, "-n", ns, "link", "del", "eth0"],
                               capture_output=True, timeout=30)
            p = subprocess.run([self.ip, "netns", "del", ns],
                               capture_output=True, text=True, timeout=30)
            if p.returncode != 0:
                errors.append(f"ip netns del {ns}: {p.stderr.strip()}")
        self._made = []
        self._hosts = {}
        assert not errors, "\n".join(errors)

    def _chains(self, host, table, rule):
        # One nft transaction, so the rules take effect at once. Loopback
        # is left alone: it is not the host's network.
        chains = "".join(
            f"  chain {hook} {{\n"
            f"    type filter hook {hook} priority 0; policy accept;\n"
            f'    {iface} "lo" accept\n'
            f"    counter {rule}\n"
            f"  }}\n"
            for hook, iface in (("input", "iifname"), ("output", "oifname")))
        self._nft(host, "-f", "-",
                  stdin=f"table inet {table} {{\n{chains}}}\n")

    def _add_ns(self, ns, skip_on_error=False):
        self._run([self.ip, "netns", "add", ns], skip_on_error)
        self._made.append(ns)

    def _ip(self, ns, *args, skip_on_error=False):
        return self._run([self.ip, "-n", ns] + list(args), skip_on_error)

    def _nft(self, host, *args, skip_on_error=False, stdin=None):
        ns = self._hosts[host][0] if host in self._hosts else host
        return self._run([self.ip, "netns", "exec", ns, self.nft] +
                         list(args), skip_on_error, stdin)

    def _run(self, cmd, skip_on_error, stdin=None):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30,
                           input=stdin)
        if p.returncode != 0:
            msg = f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}"
            if skip_on_error:
                self.stop()
                pytest.skip(f"this kernel or container refuses it: {msg}")
            pytest.fail(msg)
        return p.stdout

    def _sweep_stale(self):
        """Removes namespaces left by an earlier run of this lab that was
        killed before its teardown (same tag prefix, its pid gone)."""
        prefix = re.match(r"([a-z]+)\d+$", self.tag)
        if not prefix:
            return
        out = subprocess.run([self.ip, "netns", "list"], capture_output=True,
                             text=True, timeout=30).stdout
        for line in out.splitlines():
            m = re.match(rf"({prefix.group(1)}(\d+)-\S+)", line)
            if m and not os.path.exists(f"/proc/{m.group(2)}"):
                subprocess.run([self.ip, "netns", "del", m.group(1)],
                               capture_output=True, timeout=30)
