//! The data formats a source reads.

open_enum! {
    /// The data format of a source.
    pub enum DataFormat {
        /// One JSON object per row.
        JsonEachRow => "JSONEachRow",
        /// One JSON object per row, read as a single object column.
        JsonAsObject => "JSONAsObject",
        /// Comma-separated values.
        Csv => "CSV",
        /// Comma-separated values with a header row.
        CsvWithNames => "CSVWithNames",
        /// Tab-separated values.
        TabSeparated => "TabSeparated",
        /// Tab-separated values with a header row.
        TabSeparatedWithNames => "TabSeparatedWithNames",
        /// Apache Parquet.
        Parquet => "Parquet",
        /// Apache Avro.
        Avro => "Avro",
        /// Avro with a Confluent schema registry.
        AvroConfluent => "AvroConfluent",
        /// Protocol Buffers.
        Protobuf => "Protobuf",
    }
}
