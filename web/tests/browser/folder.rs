//! The linked folder against the browser's real APIs: a directory handle of the origin's
//! private file system (the same `FileSystemDirectoryHandle` the picker gives), files as a
//! directory input hands them over, and links kept in IndexedDB.

use js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};
use switchboard_core::evidence::content::MAX_BYTES;
use switchboard_core::evidence::path::resolve;
use switchboard_web::folder::linked::kept::{self, Kept};
use switchboard_web::folder::linked::{LinkedFolder, Permission};
use switchboard_web::model::evidence::FileRead;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

/// `target.method(...args)`, awaited.
async fn call(target: &JsValue, method: &str, args: &[JsValue]) -> JsValue {
    let function: Function = Reflect::get(target, &method.into())
        .unwrap()
        .unchecked_into();
    let returned = function
        .apply(target, &args.iter().collect::<Array>())
        .unwrap();
    JsFuture::from(Promise::resolve(&returned)).await.unwrap()
}

fn create() -> JsValue {
    let options = Object::new();
    Reflect::set(&options, &"create".into(), &true.into()).unwrap();
    options.into()
}

/// A fresh folder named `name` in the origin's private file system.
async fn private_folder(name: &str) -> JsValue {
    let navigator = Reflect::get(&web_sys::window().unwrap(), &"navigator".into()).unwrap();
    let storage = Reflect::get(&navigator, &"storage".into()).unwrap();
    let root = call(&storage, "getDirectory", &[]).await;
    let options = Object::new();
    Reflect::set(&options, &"recursive".into(), &true.into()).unwrap();
    let _ = JsFuture::from(Promise::resolve(
        &Reflect::get(&root, &"removeEntry".into())
            .unwrap()
            .unchecked_into::<Function>()
            .call2(&root, &name.into(), &options)
            .unwrap(),
    ))
    .await;
    call(&root, "getDirectoryHandle", &[name.into(), create()]).await
}

/// Writes `bytes` at `path` (`/`-separated) under `dir`, making its folders.
async fn write(dir: &JsValue, path: &str, bytes: &[u8]) {
    let names: Vec<&str> = path.split('/').collect();
    let (last, dirs) = names.split_last().unwrap();
    let mut dir = dir.clone();
    for name in dirs {
        dir = call(&dir, "getDirectoryHandle", &[(*name).into(), create()]).await;
    }
    let file = call(&dir, "getFileHandle", &[(*last).into(), create()]).await;
    let writable = call(&file, "createWritable", &[]).await;
    call(&writable, "write", &[Uint8Array::from(bytes).into()]).await;
    call(&writable, "close", &[]).await;
}

fn file(name: &str, bytes: &[u8]) -> web_sys::File {
    let parts = Array::of1(&Uint8Array::from(bytes));
    web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap()
}

async fn read(folder: &LinkedFolder, path: &str) -> FileRead {
    folder.read(&resolve(path).unwrap()).await
}

/// What both kinds of link must answer alike.
async fn reads_lists_and_refuses(folder: &LinkedFolder) {
    assert_eq!(
        read(folder, "tmp/pair_1_tests.py").await,
        FileRead::Bytes(b"assert add(2, 2) == 4\n".to_vec())
    );
    assert_eq!(
        read(folder, "$PROJECT_ROOT/tmp/pair_1_tests.py").await,
        read(folder, "tmp/pair_1_tests.py").await
    );
    assert_eq!(
        read(folder, "big.bin").await,
        FileRead::TooLarge {
            size: MAX_BYTES + 1
        }
    );
    assert_eq!(read(folder, "tmp/absent.py").await, FileRead::Missing);
    assert_eq!(read(folder, "absent/x.py").await, FileRead::Missing);
    assert!(
        matches!(read(folder, "tmp").await, FileRead::Unreadable { reason } if !reason.is_empty())
    );
    assert_eq!(folder.list("").await.unwrap(), ["big.bin", "tmp"]);
    assert_eq!(
        folder.list("tmp").await.unwrap(),
        ["deep", "pair_1_spec.md", "pair_1_tests.py"]
    );
    assert!(folder.list("nowhere").await.is_err());
    assert!(folder
        .list("../outside")
        .await
        .unwrap_err()
        .contains("not a folder inside"));
    assert_eq!(folder.permission(false).await, Ok(Permission::Granted));
}

#[wasm_bindgen_test]
async fn a_directory_handle_reads_lists_and_refuses_by_size_before_reading() {
    let dir = private_folder("linked-handle").await;
    write(&dir, "tmp/pair_1_tests.py", b"assert add(2, 2) == 4\n").await;
    write(&dir, "tmp/pair_1_spec.md", b"# Spec\n").await;
    write(&dir, "tmp/deep/x.py", b"x = 1\n").await;
    write(
        &dir,
        "big.bin",
        &vec![0; usize::try_from(MAX_BYTES).unwrap() + 1],
    )
    .await;
    let folder = LinkedFolder::from_handle(dir);
    assert_eq!(folder.name(), "linked-handle");
    assert!(!folder.read_once());
    reads_lists_and_refuses(&folder).await;
}

#[wasm_bindgen_test]
async fn files_from_a_directory_input_read_lists_and_refuse_by_size() {
    let big = vec![0; usize::try_from(MAX_BYTES).unwrap() + 1];
    let folder = LinkedFolder::from_files([
        (
            "repo/tmp/pair_1_tests.py".to_owned(),
            file("pair_1_tests.py", b"assert add(2, 2) == 4\n"),
        ),
        (
            "repo/tmp/pair_1_spec.md".to_owned(),
            file("pair_1_spec.md", b"# Spec\n"),
        ),
        ("repo/tmp/deep/x.py".to_owned(), file("x.py", b"x = 1\n")),
        ("repo/big.bin".to_owned(), file("big.bin", &big)),
    ])
    .unwrap();
    assert_eq!(folder.name(), "repo");
    assert!(folder.read_once());
    reads_lists_and_refuses(&folder).await;
    assert!(LinkedFolder::from_files([]).is_err());
}

#[wasm_bindgen_test]
async fn links_are_kept_by_server_and_project_and_forgotten() {
    let dir = private_folder("linked-kept").await;
    write(&dir, "a.py", b"a = 1\n").await;
    let (server, project) = ("http://127.0.0.1:1/mcp/", "kept-project");
    kept::forget(server, project).await.unwrap();
    assert_eq!(kept::restore(server, project).await.unwrap(), None);

    kept::keep(server, project, &LinkedFolder::from_handle(dir))
        .await
        .unwrap();
    let Some(Kept::Folder(restored)) = kept::restore(server, project).await.unwrap() else {
        panic!("the handle was not kept");
    };
    assert_eq!(restored.name(), "linked-kept");
    assert_eq!(
        read(&restored, "a.py").await,
        FileRead::Bytes(b"a = 1\n".to_vec())
    );
    assert_eq!(kept::restore(server, "other").await.unwrap(), None);

    let once = LinkedFolder::from_files([("repo/a.py".to_owned(), file("a.py", b""))]).unwrap();
    kept::keep(server, project, &once).await.unwrap();
    assert_eq!(
        kept::restore(server, project).await.unwrap(),
        Some(Kept::ReadOnce("repo".to_owned()))
    );
    kept::forget(server, project).await.unwrap();
    assert_eq!(kept::restore(server, project).await.unwrap(), None);
}
