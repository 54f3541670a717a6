-- A replay of one notification delivery (issue #31, POST …/deliveries/{deliveryId}/replay) sends
-- the message again as it went: the events it carried, as JSON, kept with each attempt of the
-- delivery log. Rows written before this column existed hold '' and cannot be replayed.
ALTER TABLE notification_deliveries ADD COLUMN IF NOT EXISTS message String DEFAULT '' CODEC(ZSTD(3));
