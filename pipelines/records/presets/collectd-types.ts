/**
 * The data sets of collectd 5.12's types.db (Debian collectd-core 5.12.0-14,
 * /usr/share/collectd/types.db): for each type, its data sources' names and kinds, in order.
 * PUTVAL lines carry only values; this names them. Generated, one type per line, the kinds
 * lower-cased as collectd's JSON writes them (GNU sed):
 *   grep -v '^#' types.db | awk 'NF' | sed -E 's/:(-?[0-9.e+]+|U):(-?[0-9.e+]+|U)//g; s/, * / /g' \
 *     | awk '{$1=$1; print}' | sed -E 's/:([A-Z]+)/:\L\1/g'
 */

/** The kinds collectd gives a data source (its `dstypes`). */
export type DsKind = 'gauge' | 'derive' | 'counter' | 'absolute';

export interface DataSource {
  readonly name: string;
  readonly kind: DsKind;
}

const TYPES_DB = `
absolute value:absolute
apache_bytes value:derive
apache_connections value:gauge
apache_idle_workers value:gauge
apache_requests value:derive
apache_scoreboard value:gauge
ath_nodes value:gauge
ath_stat value:derive
backends value:gauge
bad_peb_count value:gauge
bitrate value:gauge
blocked_clients value:gauge
bool value:gauge
bucket value:gauge
buffer value:gauge
bytes value:gauge
cache_eviction value:derive
cache_operation value:derive
cache_ratio value:gauge
cache_result value:derive
cache_size value:gauge
capacity value:gauge
ceph_bytes value:gauge
ceph_latency value:gauge
ceph_rate value:derive
changes_since_last_save value:gauge
charge value:gauge
clock_last_meas value:gauge
clock_last_update value:gauge
clock_mode value:gauge
clock_reachability value:gauge
clock_skew_ppm value:gauge
clock_state value:gauge
clock_stratum value:gauge
compression uncompressed:derive compressed:derive
compression_ratio value:gauge
commands value:derive
connections value:derive
conntrack value:gauge
contextswitch value:derive
controller value:gauge
cookies value:derive
count value:gauge
counter value:counter
cpu value:derive
cpu_affinity value:gauge
cpufreq value:gauge
current value:gauge
current_connections value:gauge
current_sessions value:gauge
delay value:gauge
delay_rate value:gauge
derive value:derive
df used:gauge free:gauge
df_complex value:gauge
df_inodes value:gauge
dilution_of_precision value:gauge
disk_allocation value:gauge
disk_capacity value:gauge
disk_error value:gauge
disk_io_time io_time:derive weighted_io_time:derive
disk_latency read:gauge write:gauge
disk_merged read:derive write:derive
disk_octets read:derive write:derive
disk_ops read:derive write:derive
disk_ops_complex value:derive
disk_physical value:gauge
disk_time read:derive write:derive
dns_answer value:derive
dns_notify value:derive
dns_octets queries:derive responses:derive
dns_opcode value:derive
dns_qtype value:derive
dns_qtype_cached value:gauge
dns_query value:derive
dns_question value:derive
dns_rcode value:derive
dns_reject value:derive
dns_request value:derive
dns_resolver value:derive
dns_response value:derive
dns_transfer value:derive
dns_update value:derive
dns_zops value:derive
domain_state state:gauge reason:gauge
dpdk_telemetry value:counter
drbd_resource value:derive
duration seconds:gauge
email_check value:gauge
email_count value:gauge
email_size value:gauge
energy value:gauge
energy_wh value:gauge
entropy value:gauge
errors value:derive
evicted_keys value:derive
expired_keys value:derive
fanspeed value:gauge
file_handles value:gauge
file_size value:gauge
files value:gauge
filter_result value:derive
flow value:gauge
fork_rate value:derive
freepages value:gauge
frequency value:gauge
frequency_error value:gauge
frequency_offset value:gauge
fscache_stat value:derive
gauge value:gauge
hash_collisions value:derive
health value:gauge
http_request_methods value:derive
http_requests value:derive
http_response_codes value:derive
humidity value:gauge
ib_cap_mask value:gauge
ib_errors value:derive
ib_lid value:gauge
ib_lid_mask_count value:gauge
ib_link_error_recovery value:derive
ib_octets rx:derive tx:derive
ib_packets rx:derive tx:derive
ib_phys_state value:gauge
ib_rate value:gauge
ib_sm_lid value:gauge
ib_sm_sl value:gauge
ib_state value:gauge
ib_xmit_wait value:derive
if_collisions value:derive
if_dropped rx:derive tx:derive
if_errors rx:derive tx:derive
if_multicast value:derive
if_octets rx:derive tx:derive
if_packets rx:derive tx:derive
if_rx_dropped value:derive
if_rx_errors value:derive
if_rx_nohandler value:derive
if_rx_octets value:derive
if_rx_packets value:derive
if_tx_dropped value:derive
if_tx_errors value:derive
if_tx_octets value:derive
if_tx_packets value:derive
invocations value:derive
io_octets rx:derive tx:derive
io_ops read:derive write:derive
io_packets rx:derive tx:derive
ipc value:gauge
ipt_bytes value:derive
ipt_packets value:derive
irq value:derive
job_stats value:derive
latency value:gauge
links value:gauge
load shortterm:gauge midterm:gauge longterm:gauge
max_ec value:gauge
media value:gauge
memory_bandwidth value:derive
md_disks value:gauge
memcached_command value:derive
memcached_connections value:gauge
memcached_items value:gauge
memcached_octets rx:derive tx:derive
memcached_ops value:derive
memory value:gauge
memory_lua value:gauge
memory_throttle_count value:derive
multimeter value:gauge
mutex_operations value:derive
mysql_bpool_bytes value:gauge
mysql_bpool_counters value:derive
mysql_bpool_pages value:gauge
mysql_commands value:derive
mysql_handler value:derive
mysql_innodb_data value:derive
mysql_innodb_dblwr value:derive
mysql_innodb_log value:derive
mysql_innodb_pages value:derive
mysql_innodb_row_lock value:derive
mysql_innodb_rows value:derive
mysql_locks value:derive
mysql_log_position value:derive
mysql_octets rx:derive tx:derive
mysql_select value:derive
mysql_sort value:derive
mysql_sort_merge_passes value:derive
mysql_sort_rows value:derive
mysql_slow_queries value:derive
nfs_procedure value:derive
nginx_connections value:gauge
nginx_requests value:derive
node_octets rx:derive tx:derive
node_rssi value:gauge
node_stat value:derive
node_tx_rate value:gauge
objects value:gauge
operations value:derive
operations_per_second value:gauge
packets value:derive
pending_operations value:gauge
percent value:gauge
percent_bytes value:gauge
percent_inodes value:gauge
perf value:derive
pf_counters value:derive
pf_limits value:derive
pf_source value:derive
pf_state value:derive
pf_states value:gauge
pg_blks value:derive
pg_db_size value:gauge
pg_n_tup_c value:derive
pg_n_tup_g value:gauge
pg_numbackends value:gauge
pg_scan value:derive
pg_xact value:derive
ping value:gauge
ping_droprate value:gauge
ping_stddev value:gauge
players value:gauge
pools value:gauge
power value:gauge
pressure value:gauge
protocol_counter value:derive
ps_code value:gauge
ps_count processes:gauge threads:gauge
ps_cputime user:derive syst:derive
ps_data value:gauge
ps_disk_octets read:derive write:derive
ps_disk_ops read:derive write:derive
ps_pagefaults minflt:derive majflt:derive
ps_rss value:gauge
ps_stacksize value:gauge
ps_state value:gauge
ps_vm value:gauge
pstates_enabled value:gauge
pubsub value:gauge
queue_length value:gauge
records value:gauge
redis_command_cputime value:derive
requests value:gauge
response_code value:gauge
response_time value:gauge
root_delay value:gauge
root_dispersion value:gauge
route_etx value:gauge
route_metric value:gauge
routes value:gauge
satellites value:gauge
segments value:gauge
serial_octets rx:derive tx:derive
signal_noise value:gauge
signal_power value:gauge
signal_quality value:gauge
slurm_job_state value:gauge
slurm_node_state value:gauge
slurm_backfilled_jobs value:derive
slurm_cycles value:derive
slurm_cycle_last value:gauge
slurm_cycle_duration value:derive
slurm_last_cycle_depth value:gauge
slurm_cycle_depth value:derive
slurm_job_stats value:derive
slurm_queue_length value:derive
smart_attribute current:gauge worst:gauge threshold:gauge pretty:gauge
smart_badsectors value:gauge
smart_powercycles value:gauge
smart_poweron value:gauge
smart_temperature value:gauge
nvme_critical_warning value:gauge
nvme_temperature value:gauge
nvme_avail_spare value:gauge
nvme_avail_spare_thresh value:gauge
nvme_percent_used value:gauge
nvme_endu_grp_crit_warn_sumry value:gauge
nvme_data_units_read value:gauge
nvme_data_units_written value:gauge
nvme_host_commands_read value:gauge
nvme_host_commands_written value:gauge
nvme_ctrl_busy_time value:gauge
nvme_power_cycles value:gauge
nvme_power_on_hours value:gauge
nvme_unsafe_shutdowns value:gauge
nvme_media_errors value:gauge
nvme_num_err_log_entries value:gauge
nvme_warning_temp_time value:gauge
nvme_critical_comp_time value:gauge
nvme_temp_sensor value:gauge
nvme_thermal_mgmt_temp1_transition_count value:gauge
nvme_thermal_mgmt_temp1_total_time value:gauge
nvme_thermal_mgmt_temp2_transition_count value:gauge
nvme_thermal_mgmt_temp2_total_time value:gauge
nvme_program_fail_count value:gauge
nvme_erase_fail_count value:gauge
nvme_wear_leveling value:gauge
nvme_end_to_end_error_detection_count value:gauge
nvme_crc_error_count value:gauge
nvme_timed_workload_timer value:gauge
nvme_timed_workload_media_wear value:gauge
nvme_timed_workload_host_reads value:gauge
nvme_thermal_throttle_status value:gauge
nvme_retry_buffer_overflow_count value:gauge
nvme_pll_lock_loss_count value:gauge
nvme_nand_bytes_written value:gauge
nvme_host_bytes_written value:gauge
snr value:gauge
spam_check value:gauge
spam_score value:gauge
spl value:gauge
swap value:gauge
swap_io value:derive
sysevent value:gauge
tcp_connections value:gauge
tdp value:gauge
temperature value:gauge
threads value:gauge
time_dispersion value:gauge
time_offset value:gauge
time_offset_ntp value:gauge
time_offset_rms value:gauge
time_ref value:gauge
timeleft value:gauge
timestamp value:gauge
total_bytes value:derive
total_connections value:derive
total_events value:derive
total_objects value:derive
total_operations value:derive
total_requests value:derive
total_sessions value:derive
total_threads value:derive
total_time_in_ms value:derive
total_values value:derive
turbo_enabled value:gauge
transitions value:derive
uptime value:gauge
uncore_ratio value:gauge
users value:gauge
vcl value:gauge
vcpu value:gauge
vf_broadcast vf_value:derive
vf_bytes vf_rx:derive vf_tx:derive
vf_dropped vf_rx:derive vf_tx:derive
vf_link_info vf_value:gauge
vf_multicast vf_value:derive
vf_packets vf_rx:derive vf_tx:derive
virt_cpu_total value:derive
virt_vcpu value:derive
vmpage_action value:derive
vmpage_faults minflt:derive majflt:derive
vmpage_io in:derive out:derive
vmpage_number value:gauge
volatile_changes value:gauge
voltage value:gauge
voltage_threshold value:gauge threshold:gauge
vs_memory value:gauge
vs_processes value:gauge
vs_threads value:gauge
arc_counts demand_data:counter demand_metadata:counter prefetch_data:counter prefetch_metadata:counter
arc_l2_bytes read:counter write:counter
arc_l2_size value:gauge
arc_ratio value:gauge
arc_size current:gauge target:gauge minlimit:gauge maxlimit:gauge
mysql_qcache hits:counter inserts:counter not_cached:counter lowmem_prunes:counter queries_in_cache:gauge
mysql_threads running:gauge connected:gauge cached:gauge created:counter
`;

function parseTypesDb(text: string): Map<string, readonly DataSource[]> {
  const types = new Map<string, readonly DataSource[]>();
  for (const line of text.split('\n')) {
    const [type, ...sources] = line.split(' ');
    if (!type) continue;
    types.set(
      type,
      sources.map((source) => {
        const [name, kind] = source.split(':');
        return { name: name!, kind: kind as DsKind };
      }),
    );
  }
  return types;
}

/** collectd's types by name. */
export const COLLECTD_TYPES: ReadonlyMap<string, readonly DataSource[]> = parseTypesDb(TYPES_DB);
