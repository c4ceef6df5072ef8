//! Reading the files users name (snapshots, library exports): gzip told by its magic bytes
//! and unpacked, and a gzip stream that breaks off told as a damaged file.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

use crate::error::{Error, Result};

/// Whether the file opens with gzip's magic bytes.
pub(crate) fn is_gzip(path: &Path) -> bool {
    let mut magic = [0u8; 2];
    File::open(path).is_ok_and(|mut file| file.read_exact(&mut magic).is_ok())
        && magic == [0x1f, 0x8b]
}

/// The error of a read that failed part way: a gzip file whose stream breaks off is damaged
/// (cut off while downloading or copying, most often), which says what to do better than
/// the decoder's words alone. `records`: the Work lines read before the break, when counted.
pub(crate) fn reading_failed(path: &Path, records: Option<usize>, source: std::io::Error) -> Error {
    if is_gzip(path) {
        Error::DamagedGzip {
            path: path.to_owned(),
            reason: source.to_string(),
            records,
        }
    } else {
        Error::Read {
            path: path.to_owned(),
            source,
        }
    }
}

/// The file's text, gzip or not.
pub(crate) fn open(path: &Path) -> Result<Box<dyn BufRead>> {
    let read_error = |source| Error::Read {
        path: path.to_owned(),
        source,
    };
    let file = File::open(path).map_err(read_error)?;
    Ok(if is_gzip(path) {
        Box::new(BufReader::new(MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    })
}

/// A file's bytes, unpacked when it is gzip: a library export may come gzipped as a snapshot
/// may.
///
/// # Errors
/// When the file cannot be read, or is a damaged gzip file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?
        .read_to_end(&mut bytes)
        .map_err(|source| reading_failed(path, None, source))?;
    Ok(bytes)
}
