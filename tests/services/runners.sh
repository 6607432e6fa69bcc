#!/usr/bin/env bash
# The real engines the runner tests use (issue 40), on loopback, as root, without systemd:
# - an sshd on 127.0.0.1:2222 (Debian's openssh-server), a key made here, and a second user
#   (`beagletest`) the tests log in as;
# - a single-node Slurm cluster (Debian's slurm-wlm: slurmctld, slurmd; munge for its
#   authentication), its slurm.conf written from what `slurmd -C` sees of this machine.
# Idempotent: what runs already is left running. Prints the variables the tests read.
set -euo pipefail
KEY=${BEAGLE_TEST_SSH_KEY:-/tmp/beagle-ssh-key}

need=()
command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v slurmctld >/dev/null || [ -x /usr/sbin/slurmctld ] || need+=(slurm-wlm)
command -v munged >/dev/null || [ -x /usr/sbin/munged ] || need+=(munge)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# munge: Slurm's authentication (the package makes /etc/munge/munge.key).
mkdir -p /run/munge && chown munge:munge /run/munge
[ -f /etc/munge/munge.key ] || mungekey -c
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged

# slurm.conf from what slurmd sees of this machine (bookworm reads /etc/slurm).
# ProctrackType=pgid: no cgroups in a container; a task's JVM stays in its script's process group
# (`timeout --foreground`), so scancel reaches it.
H=$(hostname -s)
NODE=$(slurmd -C | head -1)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=local
SlurmctldHost=$H
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/pgid
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
$NODE State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
for _ in $(seq 1 40); do sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc' && break; sleep 0.5; done
sinfo -h -o %T | grep -qE 'idle|mix|alloc' || { echo "slurm: the node did not come up" >&2; tail -20 /var/log/slurm/slurmd.log >&2; exit 1; }

# sshd on 127.0.0.1:2222, the tests' user with a key made here (never root's keys).
mkdir -p /run/sshd
[ -f /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -A >/dev/null
[ -f "$KEY" ] || ssh-keygen -q -t ed25519 -N '' -f "$KEY"
id beagletest >/dev/null 2>&1 || useradd -m -s /bin/sh beagletest
install -d -m 700 -o beagletest /home/beagletest/.ssh
install -m 600 -o beagletest "$KEY.pub" /home/beagletest/.ssh/authorized_keys
pgrep -f "sshd -p 2222" >/dev/null || /usr/sbin/sshd -p 2222 -o ListenAddress=127.0.0.1
ssh -p 2222 -i "$KEY" -o StrictHostKeyChecking=accept-new -o BatchMode=yes beagletest@127.0.0.1 true
echo "runners: sshd on 127.0.0.1:2222 (user beagletest, key $KEY) and Slurm ($(sinfo -h -o '%P %D nodes %c cpus' | head -1)) are up" >&2
