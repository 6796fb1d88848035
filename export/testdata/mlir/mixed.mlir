"builtin.module"() ({
  "func.func"() <{function_type = (!stablehlo.token, tensor<4xf32>, tensor<complex<f32>>) -> (!stablehlo.token, tensor<4xf32>, tensor<complex<f32>>, tensor<i1>), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%0: !stablehlo.token, %2: tensor<4xf32>, %3: tensor<complex<f32>>):
    %1 = "stablehlo.constant"() {value = dense<"0x0000003F0000003F0000003F0000003F"> : tensor<4xf32>} : () -> tensor<4xf32>
    %4 = "stablehlo.add"(%2, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %5 = "stablehlo.constant"() {value = dense<0x40500000> : tensor<f32>} : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
    %7 = "stablehlo.multiply"(%4, %6) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %8 = "stablehlo.constant"() {value = dense<-7> : tensor<i32>} : () -> tensor<i32>
    %9 = "stablehlo.convert"(%8) : (tensor<i32>) -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
    %11 = "stablehlo.add"(%7, %10) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %12 = "stablehlo.constant"() {value = dense<(1.5e+00, -2.0e+00)> : tensor<complex<f32>>} : () -> tensor<complex<f32>>
    %13 = "stablehlo.add"(%3, %12) : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    %14 = "stablehlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    %15 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %16 = "stablehlo.and"(%14, %15) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %17 = "stablehlo.custom_call"(%0, %11, %13, %16) {api_version = 1 : i32, backend_config = "y={} z={} flag={}", call_target_name = "jaxsh.debug_print", has_side_effect = true} : (!stablehlo.token, tensor<4xf32>, tensor<complex<f32>>, tensor<i1>) -> !stablehlo.token
    "stablehlo.custom_call"(%11) {api_version = 1 : i32, backend_config = "tap_fn", call_target_name = "jaxsh.id_tap", has_side_effect = true} : (tensor<4xf32>) -> ()
    %18 = "stablehlo.custom_call"(%11) {api_version = 1 : i32, backend_config = "host_fn", call_target_name = "jaxsh.call", has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%17, %18, %13, %16) : (!stablehlo.token, tensor<4xf32>, tensor<complex<f32>>, tensor<i1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, sym_name = "jit_mixed"} : () -> ()
